/**
 * The Lighthouse part of `npm run bench` read against its budgets (bench/budgets.ts): one Markdown table
 * of medians (min–max), then the misses. Categories, FCP and CLS against fixed budgets; TBT against the
 * control page served with the same headers in the same run (its median plus 10 ms on mobile, 0 ms on
 * desktop); LCP reported only (the visitor's is budgeted in the timeline). A miss the control shares is
 * the machine's floor and says so (it still fails the run).
 */
import { lighthouseBudget, notFoundBudget, tbtBudget, type LighthouseBudget } from "./budgets.ts";

export interface Run {
  page: string;
  formFactor: "mobile" | "desktop";
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that lost points outside Performance, for diagnosis. */
  failing: string[];
}

export const METRICS = ["performance", "accessibility", "bestPractices", "seo", "fcpMs", "lcpMs", "tbtMs", "cls"] as const;
type Metric = (typeof METRICS)[number];
type Stats = { median: number; min: number; max: number };

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const fmt = (metric: Metric, v: number) =>
  metric.endsWith("Ms")
    ? metric === "tbtMs"
      ? `${Math.round(v)} ms`
      : `${(v / 1000).toFixed(2)} s`
    : metric === "cls"
      ? v.toFixed(3)
      : String(v);

/**
 * The table and the misses. `control` and `bare` name the control page's runs (with the site's headers,
 * and without): reported beside the pages; the TBT budget is read off the first.
 */
export function lighthouseReport(runs: Run[], pages: readonly string[], control?: { withHeaders: string; bare: string }) {
  const lines = [
    "| page | form factor | Performance | Accessibility | Best Practices | SEO | FCP | LCP (reported) | TBT | CLS |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  const summary: Record<string, Record<string, Stats>> = {};
  const floor = new Map<string, string>();
  const misses: Array<{ key: string; text: string }> = [];
  const miss = (page: string, key: string, text: string) =>
    page === control?.withHeaders ? floor.set(key, text) : page === control?.bare ? undefined : misses.push({ key, text });
  const controlTbt = control && median(runs.filter((r) => r.page === control.withHeaders && r.formFactor === "mobile").map((r) => r.tbtMs));
  const measured = control ? [...pages, control.withHeaders, control.bare] : pages;

  for (const page of measured) {
    for (const formFactor of ["mobile", "desktop"] as const) {
      const own = runs.filter((r) => r.page === page && r.formFactor === formFactor);
      if (!own.length) continue;
      const stats: Record<string, Stats> = {};
      const cells = METRICS.map((metric) => {
        const values = own.map((r) => r[metric]);
        const s = { median: median(values), min: Math.min(...values), max: Math.max(...values) };
        stats[metric] = s;
        if (page === "/404" && metric === "seo") return "n/a";
        return s.min === s.max ? fmt(metric, s.median) : `${fmt(metric, s.median)} (${fmt(metric, s.min)}–${fmt(metric, s.max)})`;
      });
      summary[`${page} ${formFactor}`] = stats;
      lines.push(`| ${page} | ${formFactor} | ${cells.join(" | ")} |`);
      const tbt = stats.tbtMs!.median;
      if (formFactor === "desktop") {
        if (tbt > tbtBudget.desktopMs)
          miss(page, "tbt desktop", `${page} desktop TBT: median ${fmt("tbtMs", tbt)}, budget ${tbtBudget.desktopMs} ms`);
        continue;
      }
      const budget: LighthouseBudget = page === "/404" ? notFoundBudget : lighthouseBudget;
      for (const metric of ["performance", "accessibility", "bestPractices", "seo", "fcpMs", "cls"] as const) {
        const limit = budget[metric];
        if (limit === null) continue;
        const m = stats[metric]!.median;
        const higherIsBetter = !metric.endsWith("Ms") && metric !== "cls";
        if (higherIsBetter ? m < limit : m > limit)
          miss(page, metric, `${page} ${metric}: median ${fmt(metric, m)}, budget ${fmt(metric, limit)}`);
      }
      if (controlTbt !== undefined && page !== control!.withHeaders && page !== control!.bare && tbt > controlTbt + tbtBudget.overControlMs)
        misses.push({
          key: "tbt",
          text: `${page} TBT: median ${fmt("tbtMs", tbt)}, budget the control's ${fmt("tbtMs", controlTbt)} + ${tbtBudget.overControlMs} ms`,
        });
    }
  }
  const zero = measured.map((page) => {
    const own = runs.filter((r) => r.page === page && r.formFactor === "mobile");
    return `${page} ${own.filter((r) => Math.round(r.tbtMs) === 0).length}/${own.length}`;
  });
  lines.push("", `Mobile runs with TBT 0 ms (reported): ${zero.join(", ")}`);
  if (control)
    lines.push(
      controlTbt === undefined
        ? ""
        : `TBT budget this run: the control's mobile median ${fmt("tbtMs", controlTbt)} + ${tbtBudget.overControlMs} ms`,
      floor.size
        ? `The control page (no CSS, no script, the site's headers) misses these too, so no page served with these headers can meet them here:\n${[...floor.values()].map((f) => `- ${f}`).join("\n")}`
        : "The control page meets every fixed Lighthouse budget on this machine.",
    );
  else lines.push("No control page in this run (BENCH_CONTROL=0): TBT is reported, not judged.");
  const failures = misses.map(({ key, text }) => (floor.has(key) ? `${text} (the control misses it too)` : text));
  const lost = [...new Set(runs.flatMap((r) => r.failing.map((f) => `${r.page} ${r.formFactor} ${f}`)))];
  if (lost.length) lines.push("", `Audits that lost points in some run:\n${lost.map((l) => `- ${l}`).join("\n")}`);
  return { lines, summary, failures };
}
