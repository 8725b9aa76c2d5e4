/**
 * `npm run bench`: builds if needed, serves dist/ with our own server, runs Lighthouse (programmatic,
 * system Chromium) on every page, 5 mobile runs (default: simulated slow 4G, 4x CPU) and 3 desktop
 * runs each, interleaved page by page so drift hits all alike, read against the budgets by
 * bench/lighthouse-report.ts (TBT against the control page served with the same headers in the same
 * run); checks the byte budgets; then the landing page in Chromium's own timeline (bench/timeline.ts:
 * the visitor's LCP against the control's, the task after the first paint, the taps) and the dead-tap
 * window (bench/taps.ts); writes raw results to bench/results/; exits 1 on a budget miss. The control
 * page (bench/control.ts: no CSS, no script) gets the same mobile runs and timeline, interleaved with
 * the pages: a budget it misses too is the machine's floor, said as such (it still fails the run).
 * BENCH_PAGES, BENCH_MOBILE_RUNS, BENCH_DESKTOP_RUNS, BENCH_TIMELINE_RUNS (0: no timeline, no taps),
 * BENCH_CONTROL (0: no control) and BENCH_PORT narrow a run.
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
import { PAGES, timelineBudget } from "./budgets.ts";
import { checkByteBudgets } from "./bytes.ts";
import { serveControl } from "./control.ts";
import { lighthouseReport, type Run } from "./lighthouse-report.ts";
import { deadTapWindow } from "./taps.ts";
import { landingTimeline } from "./timeline.ts";
import { projectRoot } from "../lib/root.ts";

const root = projectRoot;
const mobileRuns = Number(process.env.BENCH_MOBILE_RUNS ?? 5);
const desktopRuns = Number(process.env.BENCH_DESKTOP_RUNS ?? 3);
/** BENCH_PAGES="/,/404" measures only those pages (comparing one page before and after a change). */
const pages = process.env.BENCH_PAGES ? PAGES.filter((page) => process.env.BENCH_PAGES!.split(",").includes(page)) : PAGES;
if (!pages.length) throw new Error(`BENCH_PAGES=${process.env.BENCH_PAGES}: none of ${PAGES.join(", ")}`);

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

  const report = lighthouseReport(runs, pages, control ? { withHeaders: CONTROL, bare: BARE } : undefined);
  const { summary } = report;
  const failures = [...report.failures];
  console.log(`Lighthouse medians of ${mobileRuns} mobile and ${desktopRuns} desktop runs per page (min–max where they differ):\n`);
  console.log(report.lines.join("\n"));

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
    // The visitor's largest paint, against the control's in the same run.
    if (controlTimeline) {
      const [lcp, floorLcp] = [timeline.medians.lcp, controlTimeline.medians.lcp];
      console.log(
        `\nLargest contentful paint (the frame it was painted in): ${Math.round(lcp)} ms, the control's ${Math.round(floorLcp)} ms`,
      );
      if (lcp > floorLcp + timelineBudget.lcpOverControlMs)
        failures.push(
          `/ LCP in Chromium's timeline: ${Math.round(lcp)} ms (median), budget the control's ${Math.round(floorLcp)} + ${timelineBudget.lcpOverControlMs} ms`,
        );
    }
  }
  const taps = timelineRuns > 0 && pages.includes("/") ? await deadTapWindow(base) : undefined;
  if (taps) {
    console.log(`\n${taps.lines.join("\n")}`);
    failures.push(...taps.misses);
  }

  mkdirSync(join(root, "bench/results"), { recursive: true });
  const file = join(root, "bench/results", `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), lighthouse: "13", mobileRuns, desktopRuns, summary, runs, bytes, timeline, controlTimeline, taps },
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
