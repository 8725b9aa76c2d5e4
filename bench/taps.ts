/**
 * The dead-tap window: how long after the cookie banner is painted a tap on it still does nothing.
 * Chromium as a slow phone (CPU ×4, 150 ms round trips, 1.6 Mbps, as Lighthouse's mobile preset), a
 * fresh visitor; from the moment "Close" is visible it is tapped every 50 ms until the banner goes.
 * Reports, per load and as medians: first contentful paint, the first tap, the tap that took effect
 * and how many taps were lost before it. Black-box, so it measures any build: `npm run bench:taps`
 * serves dist/; `-- --url http://host:port` measures a site served elsewhere (e.g. an older commit).
 */
import { spawn, spawnSync } from "node:child_process";
import { chromium } from "@playwright/test";
import { chromeArgs, findChrome } from "../tests/support/chrome.ts";
import { slowPhone } from "../tests/support/throttle.ts";

const root = new URL("..", import.meta.url).pathname;
const urlArg = process.argv.indexOf("--url");
const external = urlArg > 0 ? process.argv[urlArg + 1] : undefined;
const port = Number(process.env.BENCH_PORT ?? 4602);
const base = external ?? `http://127.0.0.1:${port}`;
const runs = Number(process.env.BENCH_TAP_RUNS ?? 5);

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

let server: ReturnType<typeof spawn> | undefined;
if (!external) {
  if (spawnSync("node", ["scripts/ensure-build.ts"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);
  server = spawn("node", ["server/index.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  for (
    let i = 0;
    i < 50 &&
    !(await fetch(`${base}/`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await new Promise((r) => setTimeout(r, 100));
}

const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
const results: TapRun[] = [];
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: false });
    // The form provider never answers (nothing leaves the machine; the banner is what is measured).
    await context.route(/^https:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { taps: number[] };
      w.taps = [];
      addEventListener("click", (event) => w.taps.push(event.timeStamp), true);
    });
    await slowPhone(page);
    await page.goto(`${base}/`, { waitUntil: "commit" });
    const close = page.getByRole("region", { name: "Cookie consent" }).getByRole("button", { name: "Close" });
    await close.waitFor({ state: "visible", timeout: 30_000 });
    const box = (await close.boundingBox())!;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && (await close.isVisible())) {
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForTimeout(50);
    }
    const { fcp, taps } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      taps: (window as unknown as { taps: number[] }).taps,
    }));
    // Taps after the effective one may still be in flight when the banner goes; the banner went on the
    // last tap that arrived before it was hidden, which is the last recorded tap at the time it vanished.
    const effectiveTap = taps[taps.length - 1] ?? NaN;
    results.push({ fcp, firstTap: taps[0] ?? NaN, effectiveTap, lostTaps: Math.max(0, taps.length - 1) });
    await context.close();
  }
} finally {
  await browser.close();
  server?.kill();
}

const ms = (v: number) => `${Math.round(v)} ms`;
console.log(`\nDead-tap window on ${base}/ (slow phone: CPU ×4, 150 ms, 1.6 Mbps), ${runs} loads\n`);
console.log("| load | first paint | first tap | tap that worked | taps lost | dead window after first paint |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
results.forEach((r, i) =>
  console.log(
    `| ${i + 1} | ${ms(r.fcp)} | ${ms(r.firstTap)} | ${ms(r.effectiveTap)} | ${r.lostTaps} | ${ms(Math.max(0, r.effectiveTap - r.fcp))} |`,
  ),
);
console.log(
  `| median | ${ms(median(results.map((r) => r.fcp)))} | ${ms(median(results.map((r) => r.firstTap)))} | ${ms(median(results.map((r) => r.effectiveTap)))} | ${median(results.map((r) => r.lostTaps))} | ${ms(median(results.map((r) => Math.max(0, r.effectiveTap - r.fcp))))} |`,
);
