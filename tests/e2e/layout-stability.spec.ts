import { expect, test } from "../support/test.ts";
import { routeFormProvider } from "../support/form-provider";
import { afterFrames, clockAt, hydrated, pausedClock } from "../support/site";

declare global {
  interface Window {
    layoutShift: { total: number; sources: string[] };
  }
}

/**
 * Layout stability over a whole visit, not just the load: the banner appears and is dismissed, the
 * popup comes and goes, the visitor scrolls to the contact section and the form (a local fixture)
 * loads. Every layout-shift entry is summed, as CLS does (shifts right after input excluded).
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`a whole visit at ${viewport.width} px shifts the layout by at most 0.01`, async ({ page, context }) => {
    await page.setViewportSize(viewport);
    await routeFormProvider(context);
    await page.addInitScript(() => {
      window.layoutShift = { total: 0, sources: [] };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<
          PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }
        >) {
          if (entry.hadRecentInput) continue;
          window.layoutShift.total += entry.value;
          for (const source of entry.sources ?? [])
            window.layoutShift.sources.push(
              `${entry.value.toFixed(4)} ${(source.node as Element | undefined)?.outerHTML?.slice(0, 80) ?? "?"}`,
            );
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await pausedClock(page);
    await page.goto("/");
    // The measurement means something only if this browser reports layout shifts at all.
    expect(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes("layout-shift"))).toBe(true);
    await expect(page.getByRole("region", { name: "Cookie consent" })).toBeVisible();

    // No input before the popup: shifts within 500 ms (real time) of an input do not count, and the fake
    // clock reaches 4 s in an instant, so a click just before would hide the popup's shifts.
    // Its island hydrates at 2.5 s (page time); the popup shows at 4 s.
    await clockAt(page, 3000);
    await hydrated(page, "UnderDevelopmentPopup");
    await clockAt(page, 4000);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    await page.clock.runFor(8600);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toHaveCount(0);
    await page.clock.resume();

    await page.getByRole("button", { name: "Accept All" }).click();
    // The one wait for a time, because the browser's rule is one: shifts within 500 ms (real time) of an
    // input are left out of the score, and the page's shifts after the click must count again.
    await page.waitForTimeout(600);

    for (let y = 0; y < (await page.evaluate(() => document.documentElement.scrollHeight)); y += viewport.height / 2) {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await afterFrames(page);
    }
    await expect(page.locator("[data-form-state]")).toHaveAttribute("data-form-state", "loaded");
    await afterFrames(page);
    const shift = await page.evaluate(() => window.layoutShift);
    expect(shift.total, shift.sources.join("\n")).toBeLessThanOrEqual(0.01);
  });
}
