/**
 * The landing page as a visitor on a slow phone meets it, in Chromium's own timeline (not Lighthouse's
 * simulation): CPU ×4, 150 ms round trips, 1.6 Mbps (testing/throttle.ts), a fresh visitor.
 *
 * - Waiting: a visit of 15 s with no input, traced (the Performance panel's events). Prints the first and
 *   the largest contentful paint (the frame in which the visitor saw the largest element), the longest
 *   task that ended by the first paint, the longest that ended after it, and every task over 50 ms, each
 *   with what it spent its time on.
 * - Tapping: in visits of their own, a tap on a link (the header's Features), a tooltip trigger (the
 *   status dot) and the banner's Reject All at 1, 2.5, 4 and 8 s after navigation start, sent by the
 *   browser's input pipeline at that time; the page's own listener records each tap's input delay (from
 *   the tap's timestamp to its first handler running: INP's input delay). Nothing is evaluated in the page
 *   while it is measured, so the test tool adds no task of its own.
 *
 * `npm run bench` runs it after Lighthouse; `npm run bench:timeline` alone (`-- --url` another server).
 * BENCH_TIMELINE_RUNS visits of each kind (3).
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { slowPhone } from "../testing/throttle.ts";
import { describeTask, readTimeline, summarize } from "./trace.ts";
import { timelineBudget } from "./budgets.ts";

const VISIT_MS = 15_000;
const TAP_AT_MS = [1000, 2500, 4000, 8000];
const TARGETS = [
  { name: "link (header: Features)", selector: 'nav[aria-label="Main"] a[href="#features"]' },
  { name: "tooltip trigger (status dot)", selector: "[data-tip-trigger]" },
  { name: "banner button (Reject All)", selector: '[data-consent-banner] [data-consent-action="reject"]' },
] as const;
const PHONE = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true };

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (v: number) => `${Math.round(v)} ms`;
const sleepUntil = (wallMs: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, wallMs - Date.now())));

async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext(PHONE);
  // Nothing leaves the machine: the form provider never answers (the page is what is measured).
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  const page = await context.newPage();
  await slowPhone(page);
  return page;
}

/** One traced visit with no input; a trace the browser failed to record whole (no navigation start, on a busy machine) is retried. */
async function quietVisit(browser: Browser, url: string, attempt = 1): Promise<ReturnType<typeof summarize>> {
  const page = await phonePage(browser);
  const categories = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "loading",
    "toplevel",
    "v8.execute",
    "blink.user_timing",
  ];
  await browser.startTracing(page, { categories });
  const started = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  await sleepUntil(started + VISIT_MS);
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: Parameters<typeof readTimeline>[0] };
  await page.context().close();
  try {
    return summarize(readTimeline(trace.traceEvents, url));
  } catch (error) {
    if (attempt >= 3) throw error;
    return quietVisit(browser, url, attempt + 1);
  }
}

/** Where each target is on the phone's screen (a visit of its own, unthrottled: layout does not depend on time). */
async function targetPoints(browser: Browser, url: string) {
  const context = await browser.newContext(PHONE);
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  const points = await Promise.all(
    TARGETS.map(async ({ selector }) => {
      const box = (await page.locator(selector).first().boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }),
  );
  await context.close();
  return points;
}

/** One visit, one tap at `atMs` after navigation start; the tap's input delay as the page measured it. */
async function tapVisit(browser: Browser, url: string, point: { x: number; y: number }, atMs: number) {
  const page = await phonePage(browser);
  // The first listener of all: when the tap's first event (pointerdown) starts being handled.
  await page.addInitScript(() => {
    const w = window as unknown as { tapDelays: Array<{ type: string; at: number; delay: number }> };
    w.tapDelays = [];
    for (const type of ["pointerdown", "click"])
      addEventListener(type, (e) => w.tapDelays.push({ type, at: e.timeStamp, delay: performance.now() - e.timeStamp }), true);
  });
  const cdp = await page.context().newCDPSession(page);
  const started = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  await sleepUntil(started + atMs);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  // Read once the tap has been handled (then nothing is measured any more), with a bare expression: the
  // test tool's own helpers would be a task of their own in the page.
  const read = `new Promise((done) => { const look = () => tapDelays.some((d) => d.type === "pointerdown") ? done(JSON.stringify(tapDelays)) : setTimeout(look, 50); look(); })`;
  const { result } = (await cdp.send("Runtime.evaluate", { expression: read, awaitPromise: true, returnByValue: true })) as {
    result: { value: string };
  };
  const delays = JSON.parse(result.value) as Array<{ type: string; at: number; delay: number }>;
  await page.context().close();
  const first = delays.find((d) => d.type === "pointerdown")!;
  return { at: first.at, delay: first.delay };
}

export interface TimelineResult {
  lines: string[];
  /** The medians a budget compares with the control's in the same run. */
  medians: { lcp: number };
  /** Each budget miss, under a key that names the budget (to match the control's misses). */
  misses: Array<{ key: string; text: string }>;
}

/** Runs both measurements against `origin` and returns the report and the budget misses (medians). */
export async function landingTimeline(
  origin: string,
  runs = Number(process.env.BENCH_TIMELINE_RUNS ?? 3),
  label = "Landing page",
): Promise<TimelineResult> {
  const url = `${origin}/`;
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  const lines: string[] = [];
  const misses: TimelineResult["misses"] = [];
  const medians: TimelineResult["medians"] = { lcp: NaN };
  try {
    lines.push(`${label} timeline, slow phone (CPU ×4, 150 ms, 1.6 Mbps), ${runs} visits of ${VISIT_MS / 1000} s with no input:`, "");
    lines.push(
      "| visit | first paint | largest paint | longest task by the first paint | longest task after it | tasks over 50 ms |",
      "| ---: | ---: | ---: | --- | --- | --- |",
    );
    const visits = [];
    for (let run = 1; run <= runs; run++) {
      const s = await quietVisit(browser, url);
      visits.push(s);
      const long = s.long.map((t) => `${describeTask(t)}${t.end > s.fcp ? "" : " (before paint)"}`).join("; ") || "none";
      lines.push(`| ${run} | ${ms(s.fcp)} | ${ms(s.lcp)} | ${describeTask(s.beforePaint)} | ${describeTask(s.afterPaint)} | ${long} |`);
    }
    const after = median(visits.map((v) => v.afterPaint?.duration ?? 0));
    const before = median(visits.map((v) => v.beforePaint?.duration ?? 0));
    const longAfter = median(visits.map((v) => v.longAfterPaint.length));
    const lcp = median(visits.map((v) => v.lcp));
    lines.push(
      `| median | ${ms(median(visits.map((v) => v.fcp)))} | ${ms(lcp)} | ${ms(before)} | ${ms(after)} | ${longAfter} over 50 ms after the first paint |`,
    );
    medians.lcp = lcp;
    const taskBudget = timelineBudget.longestTaskAfterPaintMs;
    if (taskBudget === null)
      lines.push("", "The longest task after the first paint is reported, not budgeted (accepted: docs/decisions/0010).");
    else if (after > taskBudget)
      misses.push({
        key: "longest task after paint",
        text: `${label}: longest task after the first paint ${ms(after)} (median), budget ${taskBudget} ms`,
      });

    const points = await targetPoints(browser, url);
    lines.push("", `Taps (a visit each), input delay, median of ${runs} (min–max):`, "");
    lines.push(`| target | ${TAP_AT_MS.map((t) => `at ${t / 1000} s`).join(" | ")} |`, `| --- |${" ---: |".repeat(TAP_AT_MS.length)}`);
    for (const [i, target] of TARGETS.entries()) {
      const cells: string[] = [];
      for (const atMs of TAP_AT_MS) {
        const delays: number[] = [];
        for (let run = 0; run < runs; run++) delays.push((await tapVisit(browser, url, points[i]!, atMs)).delay);
        const m = median(delays);
        cells.push(`${ms(m)} (${ms(Math.min(...delays))}–${ms(Math.max(...delays))})`);
        if (m > timelineBudget.tapInputDelayMs)
          misses.push({
            key: `tap ${target.name} ${atMs}`,
            text: `${label}: a tap on the ${target.name} at ${atMs / 1000} s waited ${ms(m)} (median), budget ${timelineBudget.tapInputDelayMs} ms`,
          });
      }
      lines.push(`| ${target.name} | ${cells.join(" | ")} |`);
    }
  } finally {
    await browser.close();
  }
  return { lines, medians, misses };
}

// `npm run bench:timeline`: this measurement alone, against dist/ (or `-- --url <origin>`).
if (import.meta.main) {
  const { spawnSync } = await import("node:child_process");
  const { serveBuild } = await import("../scripts/lib/serve-build.ts");
  const { projectRoot } = await import("../lib/root.ts");
  const urlArg = process.argv.indexOf("--url");
  const external = urlArg > 0 ? process.argv[urlArg + 1]?.replace(/\/$/, "") : undefined;
  if (!external && spawnSync("node", ["scripts/ensure-build.ts"], { cwd: projectRoot, stdio: "inherit" }).status !== 0) process.exit(1);
  const server = external ? undefined : await serveBuild();
  try {
    const { lines, misses } = await landingTimeline(external ?? server!.origin);
    const failures = misses.map((m) => m.text);
    console.log(lines.join("\n"));
    if (failures.length) {
      console.log(`\nBudgets exceeded:\n${failures.map((f) => `- ${f}`).join("\n")}`);
      process.exitCode = 1;
    } else console.log("\nTimeline budgets met.");
  } finally {
    await server?.stop();
  }
}
