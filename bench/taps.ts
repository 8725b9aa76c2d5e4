/**
 * The dead-tap window: how long after the cookie banner is painted a tap on it still does nothing.
 * Chromium as a slow phone (CPU ×4, 150 ms round trips, 1.6 Mbps, as Lighthouse's mobile preset), a
 * fresh visitor. A probe inside the page clicks "Close" every 50 ms from the first contentful paint
 * (reported by the browser) until the banner goes; driving the taps from inside the page keeps the
 * test runner's round trips out of the figure. Reports, per load and as medians: first contentful
 * paint, the first tap, the tap that took effect, the dead window between them and the taps lost. Black-box, so it
 * measures any build: `npm run bench:taps` serves dist/; `-- --url http://host:port` measures a site
 * served elsewhere (e.g. an older commit). `npm run bench` runs it too; budget: a window of 0 ms
 * (bench/budgets.ts, `deadTapBudget`).
 */
import { spawnSync } from "node:child_process";
import { serveBuild, type ServedBuild } from "../scripts/lib/serve-build.ts";
import { chromium } from "@playwright/test";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { slowPhone } from "../testing/throttle.ts";
import { projectRoot } from "../lib/root.ts";
import { deadTapBudget } from "./budgets.ts";

interface TapRun {
  fcp: number;
  firstTap: number;
  effectiveTap: number;
  lostTaps: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (v: number) => `${Math.round(v)} ms`;

/** `runs` loads of `base`/ with the probe; the report and, when the median window is over budget, the miss. */
export async function deadTapWindow(base: string, runs = Number(process.env.BENCH_TAP_RUNS ?? 5)) {
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  const results: TapRun[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: false });
      // The form provider never answers (nothing leaves the machine; the banner is what is measured).
      await context.route(/^https:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { probe: { fcp?: number; taps: number[]; done?: number } };
        w.probe = { taps: [] };
        const close = () => document.querySelector<HTMLElement>('[data-consent-banner] button[aria-label="Close"]');
        const shown = () => {
          const banner = document.querySelector<HTMLElement>("[data-consent-banner]");
          return !!banner && getComputedStyle(banner).display !== "none";
        };
        const tap = () => {
          if (w.probe.done !== undefined) return;
          const button = close();
          if (button && shown()) {
            w.probe.taps.push(performance.now());
            button.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
          }
          // React may apply a click's update a little later: look again before the next tap.
          setTimeout(() => {
            if (!shown() && w.probe.done === undefined) w.probe.done = w.probe.taps[w.probe.taps.length - 1];
            else tap();
          }, 50);
        };
        new PerformanceObserver((list) => {
          const paint = list.getEntriesByName("first-contentful-paint")[0];
          if (paint && w.probe.fcp === undefined) {
            w.probe.fcp = paint.startTime;
            tap();
          }
        }).observe({ type: "paint", buffered: true });
      });
      await slowPhone(page);
      await page.goto(`${base}/`, { waitUntil: "commit" });
      await page.waitForFunction(() => (window as unknown as { probe: { done?: number } }).probe.done !== undefined, null, {
        timeout: 30_000,
        polling: 100,
      });
      const probe = await page.evaluate(() => (window as unknown as { probe: { fcp: number; taps: number[]; done: number } }).probe);
      results.push({ fcp: probe.fcp, firstTap: probe.taps[0] ?? NaN, effectiveTap: probe.done, lostTaps: probe.taps.length - 1 });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  // The dead window: from the first tap the page could take (its first paint reported) to the one that worked.
  const dead = (r: TapRun) => r.effectiveTap - r.firstTap;
  const med = (pick: (r: TapRun) => number) => median(results.map(pick));
  const lines = [
    `Dead-tap window on ${base}/ (slow phone: CPU ×4, 150 ms, 1.6 Mbps), ${runs} loads:`,
    "",
    "| load | first paint | first tap | tap that worked | taps lost | dead window |",
    "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map((r, i) => `| ${i + 1} | ${ms(r.fcp)} | ${ms(r.firstTap)} | ${ms(r.effectiveTap)} | ${r.lostTaps} | ${ms(dead(r))} |`),
    `| median | ${ms(med((r) => r.fcp))} | ${ms(med((r) => r.firstTap))} | ${ms(med((r) => r.effectiveTap))} | ${med((r) => r.lostTaps)} | ${ms(med(dead))} |`,
  ];
  const deadMs = med(dead);
  const misses = deadMs > deadTapBudget.windowMs ? [`dead-tap window ${ms(deadMs)} (median), budget ${deadTapBudget.windowMs} ms`] : [];
  return { lines, deadMs, misses };
}

// `npm run bench:taps`: this measurement alone, against dist/ (or `-- --url <origin>`).
if (import.meta.main) {
  const urlArg = process.argv.indexOf("--url");
  const external = urlArg > 0 ? process.argv[urlArg + 1] : undefined;
  let server: ServedBuild | undefined;
  if (!external) {
    if (spawnSync("node", ["scripts/ensure-build.ts"], { cwd: projectRoot, stdio: "inherit" }).status !== 0) process.exit(1);
    server = await serveBuild();
  }
  try {
    const { lines, misses } = await deadTapWindow(external ?? server!.origin);
    console.log(`\n${lines.join("\n")}`);
    if (misses.length) {
      console.log(`\nBudget exceeded: ${misses.join("; ")}`);
      process.exitCode = 1;
    }
  } finally {
    await server?.stop();
  }
}
