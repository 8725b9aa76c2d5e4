/**
 * `npm run bench`: builds if needed, serves dist/ with our own server, runs Lighthouse (programmatic,
 * system Chromium) on every page, 5 mobile runs (default: simulated slow 4G, 4x CPU) and 3 desktop
 * runs each, interleaved page by page so drift hits all alike; checks the byte budgets; prints one
 * Markdown table of medians (min–max) and each page's mobile runs with TBT 0 ms; then the landing page in
 * Chromium's own timeline (bench/timeline.ts); writes raw results to bench/results/; exits 1 on a budget
 * miss. Budgets apply to the mobile runs; desktop is reported. A control page without CSS or script
 * (bench/control.ts) gets the same mobile runs and timeline, interleaved with the pages: the budgets it
 * misses too are the machine's floor, printed as such (they still fail the run). BENCH_PAGES,
 * BENCH_MOBILE_RUNS, BENCH_DESKTOP_RUNS, BENCH_TIMELINE_RUNS (0: no timeline), BENCH_CONTROL (0: no
 * control) and BENCH_PORT narrow a run.
 */
import { spawnSync } from "node:child_process";
import { serveBuild } from "../scripts/lib/serve-build.ts";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { lighthouseBudget, notFoundBudget, PAGES, tbtZeroRuns, type LighthouseBudget } from "./budgets.ts";
import { checkByteBudgets } from "./bytes.ts";
import { serveControl } from "./control.ts";
import { landingTimeline } from "./timeline.ts";
import { projectRoot } from "../lib/root.ts";

const root = projectRoot;
const mobileRuns = Number(process.env.BENCH_MOBILE_RUNS ?? 5);
const desktopRuns = Number(process.env.BENCH_DESKTOP_RUNS ?? 3);
/** BENCH_PAGES="/,/404" measures only those pages (comparing one page before and after a change). */
const pages = process.env.BENCH_PAGES ? PAGES.filter((page) => process.env.BENCH_PAGES!.split(",").includes(page)) : PAGES;
if (!pages.length) throw new Error(`BENCH_PAGES=${process.env.BENCH_PAGES}: none of ${PAGES.join(", ")}`);

interface Run {
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

const metrics = ["performance", "accessibility", "bestPractices", "seo", "fcpMs", "lcpMs", "tbtMs", "cls"] as const;
/** The control page's runs are filed under these names (never one of PAGES): with the site's headers, and without. */
const CONTROL = "control";
const BARE = "control, no headers";
const urlFor = (page: string) =>
  page === CONTROL
    ? `${control!.origin}/`
    : page === BARE
      ? `${bare!.origin}/`
      : `${base}${page === "/404" ? "/this-page-does-not-exist" : page}`;

if (spawnSync("node", ["scripts/ensure-build.ts"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);

const server = await serveBuild();
const base = server.origin;
const control = process.env.BENCH_CONTROL === "0" ? undefined : await serveControl();
const bare = control && (await serveControl({ headers: false }));
const profile = mkdtempSync(join(tmpdir(), "bench-chrome-"));
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  chrome = await chromeLauncher.launch({
    chromePath: findChrome(),
    chromeFlags: ["--headless=new", ...chromeArgs, `--user-data-dir=${profile}`],
    userDataDir: false,
  });

  const runs: Run[] = [];
  const once = async (page: string, formFactor: Run["formFactor"]) => {
    const settings = {
      port: chrome!.port,
      output: "json" as const,
      logLevel: "error" as const,
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    };
    const preset = formFactor === "desktop" ? desktopConfig : { extends: "lighthouse:default" as const };
    // The 404 page must answer 404, and Chrome logs that status of the document as a console error.
    // Only that message is ignored, and a separate check below fails the run if any other request
    // answered 4xx/5xx, so a real missing resource still counts.
    const config =
      page === "/404"
        ? {
            ...preset,
            audits: [
              { path: "errors-in-console", options: { ignoredPatterns: ["the server responded with a status of 404 (Not Found)"] } },
            ],
          }
        : preset;
    // A trace can fail to record on a busy machine (NO_NAVSTART); such a run is retried, not counted.
    let lhr;
    for (let attempt = 1; ; attempt++) {
      lhr = (await lighthouse(urlFor(page), { ...settings, ignoreStatusCode: page === "/404" }, config))!.lhr;
      if (!lhr.runtimeError) break;
      if (attempt === 3) throw new Error(`${page}: ${lhr.runtimeError.message}`);
      process.stdout.write("r");
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const requests =
      (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; statusCode: number }> } | undefined)?.items ?? [];
    const brokenSubresources = requests
      .filter((r) => r.url !== urlFor(page) && r.statusCode >= 400)
      .map((r) => `broken-request:${r.statusCode}:${r.url}`);
    const failing = [
      ...brokenSubresources,
      ...["accessibility", "best-practices", "seo"].flatMap((id) =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${id}:${ref.id}`),
      ),
    ];
    if (brokenSubresources.length) throw new Error(`${page}: requests failed: ${brokenSubresources.join(", ")}`);
    runs.push({
      page,
      formFactor,
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      fcpMs: value("first-contentful-paint"),
      lcpMs: value("largest-contentful-paint"),
      tbtMs: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      failing,
    });
    process.stdout.write(".");
  };
  for (let round = 0; round < Math.max(mobileRuns, desktopRuns); round++) {
    for (const page of pages) {
      if (round < mobileRuns) await once(page, "mobile");
      if (round < desktopRuns) await once(page, "desktop");
    }
    if (control && round < mobileRuns) await once(CONTROL, "mobile");
    if (bare && round < mobileRuns) await once(BARE, "mobile");
  }
  console.log("");

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const fmt = (metric: (typeof metrics)[number], v: number) =>
    metric.endsWith("Ms")
      ? metric === "tbtMs"
        ? `${Math.round(v)} ms`
        : `${(v / 1000).toFixed(2)} s`
      : metric === "cls"
        ? v.toFixed(3)
        : String(v);

  const failures: string[] = [];
  const lines = [
    "| page | form factor | Performance | Accessibility | Best Practices | SEO | FCP | LCP | TBT | CLS |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  const summary: Record<string, Record<string, { median: number; min: number; max: number }>> = {};
  // A miss of the control's is the machine's floor: reported, and marked on the pages' own misses. The
  // control without headers is reported beside it (what the headers cost), and marks nothing.
  const floor = new Map<string, string>();
  const bareFloor = new Map<string, string>();
  const misses: Array<{ key: string; text: string }> = [];
  const miss = (page: string, key: string, text: string) =>
    page === CONTROL ? floor.set(key, text) : page === BARE ? bareFloor.set(key, text) : misses.push({ key, text });
  const measured = control ? [...pages, CONTROL, BARE] : pages;
  for (const page of measured) {
    for (const formFactor of ["mobile", "desktop"] as const) {
      const own = runs.filter((r) => r.page === page && r.formFactor === formFactor);
      if (!own.length) continue;
      const cells: string[] = [];
      const stats: Record<string, { median: number; min: number; max: number }> = {};
      for (const metric of metrics) {
        const values = own.map((r) => r[metric]);
        const m = median(values);
        const [min, max] = [Math.min(...values), Math.max(...values)];
        stats[metric] = { median: m, min, max };
        const budget: LighthouseBudget = page === "/404" ? notFoundBudget : lighthouseBudget;
        const limit = budget[metric];
        if (page === "/404" && metric === "seo") {
          cells.push("n/a");
          continue;
        }
        cells.push(min === max ? fmt(metric, m) : `${fmt(metric, m)} (${fmt(metric, min)}–${fmt(metric, max)})`);
        if (formFactor !== "mobile" || limit === null) continue;
        const higherIsBetter = !metric.endsWith("Ms") && metric !== "cls";
        if (higherIsBetter ? m < limit : m > limit)
          miss(page, metric, `${page} ${metric}: median ${fmt(metric, m)}, budget ${fmt(metric, limit)}`);
      }
      summary[`${page} ${formFactor}`] = stats;
      lines.push(`| ${page} | ${formFactor} | ${cells.join(" | ")} |`);
    }
  }
  console.log(`Lighthouse medians of ${mobileRuns} mobile and ${desktopRuns} desktop runs per page (min–max where they differ):\n`);
  console.log(lines.join("\n"));

  // A median hides the one run that caught a long task: count the runs without any blocking time.
  const zeroLines: string[] = [];
  for (const page of measured) {
    const own = runs.filter((r) => r.page === page && r.formFactor === "mobile");
    if (!own.length) continue;
    const zero = own.filter((r) => Math.round(r.tbtMs) === 0).length;
    const needed = Math.ceil((tbtZeroRuns.atLeast / tbtZeroRuns.of) * own.length);
    zeroLines.push(`${page} ${zero}/${own.length}`);
    if (zero < needed) miss(page, "tbtZero", `${page} TBT 0 ms in ${zero} of ${own.length} mobile runs, budget ${needed}`);
  }
  console.log(`\nMobile runs with TBT 0 ms: ${zeroLines.join(", ")}`);
  const report = (name: string, found: Map<string, string>, meaning: string) =>
    console.log(
      found.size
        ? `\nThe ${name} misses these budgets too, ${meaning}:\n${[...found.values()].map((f) => `- ${f}`).join("\n")}`
        : `\nThe ${name} meets every Lighthouse budget on this machine.`,
    );
  if (control) {
    report(
      "control page (bench/control.ts: no CSS, no script, the site's headers)",
      floor,
      "so no page served with these headers can meet them here",
    );
    report("control page without the site's headers", bareFloor, "so no page can meet them here");
  }
  failures.push(...misses.map(({ key, text }) => (floor.has(key) ? `${text} (the control misses it too)` : text)));

  const lost = [...new Set(runs.flatMap((r) => r.failing.map((f) => `${r.page} ${r.formFactor} ${f}`)))];
  if (lost.length) console.log(`\nAudits that lost points in some run:\n${lost.map((l) => `- ${l}`).join("\n")}`);

  const bytes = checkByteBudgets(join(root, "dist"));
  for (const r of bytes.results.filter((r) => !r.ok)) failures.push(`${r.name}: ${r.value} bytes, budget ${r.limit}`);
  console.log(`\nByte budgets: ${bytes.results.filter((r) => r.ok).length}/${bytes.results.length} met (details: npm run bench:bytes)`);

  const timelineRuns = Number(process.env.BENCH_TIMELINE_RUNS ?? 3);
  const timeline = pages.includes("/") && timelineRuns > 0 ? await landingTimeline(base, timelineRuns) : undefined;
  const controlTimeline =
    timeline && control ? await landingTimeline(control.origin, timelineRuns, "Control page (bench/control.ts)") : undefined;
  if (timeline) {
    console.log(`\n${timeline.lines.join("\n")}`);
    if (controlTimeline) {
      console.log(`\n${controlTimeline.lines.join("\n")}`);
      if (controlTimeline.misses.length)
        console.log(`\nThe control page misses these too:\n${controlTimeline.misses.map((m) => `- ${m.text}`).join("\n")}`);
    }
    const shared = new Set(controlTimeline?.misses.map((m) => m.key));
    failures.push(...timeline.misses.map(({ key, text }) => (shared.has(key) ? `${text} (the control misses it too)` : text)));
  }

  mkdirSync(join(root, "bench/results"), { recursive: true });
  const file = join(root, "bench/results", `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), lighthouse: "13", mobileRuns, desktopRuns, summary, runs, bytes, timeline, controlTimeline },
      null,
      2,
    ),
  );
  console.log(`Raw results: ${file.slice(root.length)}`);
  if (failures.length) {
    console.log(`\nBudgets exceeded:\n${failures.map((f) => `- ${f}`).join("\n")}`);
    process.exitCode = 1;
  } else console.log("\nAll budgets met.");
} finally {
  chrome?.kill();
  await server.stop();
  await control?.stop();
  await bare?.stop();
  rmSync(profile, { recursive: true, force: true });
}
