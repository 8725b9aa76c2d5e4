import { expect, test } from "../support/test.ts";
import { clockAt, openPage, PAGES } from "../support/site.ts";
import { focused, prepare, tabbables, tabThrough } from "../support/keyboard.ts";
import { POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";

/** A 1280 × 1024 screen at 400 % zoom: 320 × 256 CSS px (WCAG 1.4.10 reflow, 2.4.11 focus not obscured). */
const ZOOMED = { width: 320, height: 256 };

test.describe("at 400 % zoom (320 × 256 CSS px)", () => {
  test.use({ viewport: ZOOMED });

  for (const { name, path } of PAGES) {
    test(`${name}, first visit: the banner takes at most half the screen, its controls come right after the skip link, and no Tab stop is ever hidden`, async ({
      page,
    }) => {
      // Tab through every stop of the page, each judged at rest: long pages need more than the default time.
      test.setTimeout(240_000);
      await openPage(page, path, { banner: "shown", skipPopup: true });
      const banner = page.getByRole("region", { name: "Cookie consent" });
      expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(ZOOMED.height / 2);
      await prepare(page);
      const expected = await tabbables(page);
      const inBanner = await banner.evaluate((el) => [...el.querySelectorAll("a[href], button")].length);
      expect(inBanner).toBe(4);
      const stops = await tabThrough(page, expected.length, { within: "[data-consent-banner]" });
      // The skip link first, then the banner's link and its three buttons.
      for (let i = 1; i <= inBanner; i++) expect(stops[i]?.within, `Tab stop ${i + 1}`).toBe(true);
      const visited = stops.map((report) => report.key);
      const problems = stops.filter((report) => report.visibleSamples === 0).map((report) => `${report.key}: fully hidden`);
      expect(visited).toEqual(expected);
      expect(problems).toEqual([]);
    });
  }

  test("home: the header scrolls away with the page, so the banner and the page share the screen", async ({ page }) => {
    await openPage(page, "/", { banner: "shown", skipPopup: true });
    await page.evaluate(() => window.scrollTo({ top: 600, behavior: "instant" }));
    await expect(page.locator("header")).not.toBeInViewport();
  });

  test("home: the popup's Close button has focus and is on screen, and its words scroll into view", async ({ page }) => {
    await openPage(page, "/", { banner: "shown" });
    await clockAt(page, POPUP_SHOW_AT_MS);
    const dialog = page.getByRole("dialog", { name: "Under Development" });
    const close = dialog.getByRole("button", { name: "Close" });
    await expect(close).toBeFocused();
    await expect(close).toBeInViewport();
    expect((await focused(page)).visibleSamples).toBeGreaterThan(0);
    const bar = dialog.getByRole("progressbar");
    await bar.scrollIntoViewIfNeeded();
    await expect(bar).toBeInViewport();
  });
});
