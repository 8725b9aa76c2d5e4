import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { parse } from "yaml";
import { heroSchema } from "../../src/content/schemas/landing.ts";
import { routeFormProvider } from "../../testing/form-provider.ts";
import { slowPhone } from "../../testing/throttle.ts";
import { closePopupWhenShown } from "../support/site.ts";

const settlement = heroSchema.parse(parse(readFileSync("src/content/landing/hero.yaml", "utf8"))).settlement;
const figure = (page: Page) => page.locator("#introduction figure");

test.beforeEach(async ({ context, page }) => {
  await routeFormProvider(context);
  await context.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
  await closePopupWhenShown(page);
});

for (const width of [1024, 1440]) {
  test(`at ${width} px the net-settlement drawing stands beside the headline`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    const drawing = figure(page).locator("svg");
    await expect(drawing).toBeVisible();
    const heading = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
    const box = (await drawing.boundingBox())!;
    // To the right of the headline's column, level with it, within the page.
    expect(box.x).toBeGreaterThan(heading.x + heading.width);
    expect(box.y).toBeLessThan(heading.y + heading.height);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(box.width).toBeGreaterThan(300);
    // Every participant from the copy is labelled, and the venue too.
    for (const { name } of settlement.participants) await expect(drawing.locator("text", { hasText: name })).toHaveCount(1);
    await expect(drawing.locator("text", { hasText: settlement.venue })).toHaveCount(1);
  });
}

test("below 1024 px the drawing is left out", async ({ page }) => {
  for (const width of [375, 768, 1023]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await expect(figure(page)).toBeHidden();
  }
});

test("assistive technology gets the caption, not the drawing", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await expect(figure(page).locator("svg")).toHaveAttribute("aria-hidden", "true");
  const n = settlement.participants.length;
  const net = settlement.participants.filter((p) => p.net !== "flat").length;
  const caption = `${(n * (n - 1)) / 2} ${settlement.grossLabel} ${net} ${settlement.netLabel}`;
  await expect(page.getByRole("figure")).toHaveAccessibleName(caption);
  await expect(figure(page).locator("figcaption")).toBeVisible();
});

test("it costs the first paint nothing: no request, no inline style, and the headline is the largest paint", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await expect(figure(page).locator("svg")).toBeVisible();
  // Drawn inline from the document: no image, no external reference.
  expect(await figure(page).locator("img, image, use, [href^='http'], [src]").count()).toBe(0);
  // The strict CSP allows no style attribute: the drawing is styled by classes and presentation attributes.
  // (<html> and <body> get the cookie banner's measured height through the CSSOM, which the CSP allows.)
  expect(await page.locator("body [style]").count()).toBe(0);
  expect(await (await page.request.get("/")).text()).not.toMatch(/<[^>]+\sstyle=/);
  const largest = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as Array<PerformanceEntry & { element?: Element }>;
          const last = entries[entries.length - 1];
          resolve(last?.element ? `${last.element.tagName.toLowerCase()}#${last.element.id}` : "none");
        }).observe({ type: "largest-contentful-paint", buffered: true });
      }),
  );
  expect(largest).toBe("h1#introduction-title");
  expect(requests.filter((url) => !url.startsWith("http://127.0.0.1")).length).toBe(0);
});

test("on a slow phone the first paint holds the first screen: the headline is painted with it, not a frame later", async ({ page }) => {
  // The cookie banner comes first in <body>: a first frame drawn when the parser yielded after the header
  // held the banner and no headline, and the largest paint (the headline) came 60-300 ms later.
  await page.setViewportSize({ width: 412, height: 823 });
  await page.addInitScript(() => {
    const w = window as unknown as { lcp: Array<[number, string]> };
    w.lcp = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element }>)
        w.lcp.push([entry.startTime, entry.element ? `${entry.element.tagName.toLowerCase()}#${entry.element.id}` : "?"]);
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  await slowPhone(page);
  await page.goto("/");
  const paints = () =>
    page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      lcp: (window as unknown as { lcp: Array<[number, string]> }).lcp,
    }));
  await expect.poll(async () => (await paints()).lcp.some(([, element]) => element === "h1#introduction-title")).toBe(true);
  const { fcp, lcp } = await paints();
  expect(lcp).toEqual([[fcp, "h1#introduction-title"]]);
});

test("motion: under reduced motion nothing moves; otherwise one short sequence that ends", async ({ browser, baseURL }) => {
  for (const reducedMotion of ["reduce", "no-preference"] as const) {
    const context = await browser.newContext({ reducedMotion, viewport: { width: 1440, height: 900 }, baseURL });
    await routeFormProvider(context);
    const page = await context.newPage();
    await page.goto("/");
    const timings = await figure(page).evaluate((el) =>
      el.getAnimations({ subtree: true }).map((a) => {
        const t = a.effect!.getComputedTiming();
        return { iterations: t.iterations, end: Number(t.endTime) };
      }),
    );
    if (reducedMotion === "reduce") {
      expect(timings).toEqual([]);
    } else {
      expect(timings.length).toBeGreaterThan(0);
      // Finite and short: over well within five seconds (WCAG 2.2.2 needs no pause control then).
      for (const t of timings) {
        expect(t.iterations).toBe(1);
        expect(t.end).toBeLessThan(3000);
      }
    }
    await context.close();
  }
});
