import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { POPUP_SHOW_AT_MS, TOOLTIP_OPEN_DELAY_MS } from "../../src/shared/constants.ts";
import { axeViolations, clockAt, hydrated, openPage, PAGES, WIDTHS } from "../support/site.ts";

/**
 * The axe matrix: every page x 1280 and 320 px x cookie banner shown and hidden, plus the landing page
 * with the Under Development popup open and with a tooltip open. Zero violations everywhere.
 */
for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const { name, path } of PAGES) {
      for (const banner of ["shown", "hidden"] as const) {
        test(`${name}, cookie banner ${banner}: no axe violations`, async ({ page }) => {
          await openPage(page, path, { banner, skipPopup: true });
          expect(await axeViolations(page, { inPage: true })).toEqual([]);
        });
      }
    }

    test("home, Under Development popup open: no axe violations", async ({ page }) => {
      await openPage(page, "/");
      await clockAt(page, POPUP_SHOW_AT_MS);
      const dialog = page.getByRole("dialog", { name: "Under Development" });
      await expect(dialog).toBeVisible();
      // The fade starts on the next animation frame and runs in real time: let the clock go (12 s is far off).
      await page.clock.resume();
      await expectFadedIn(page);
      expect(await axeViolations(page, { inPage: true })).toEqual([]);
    });

    test("home, highlight tooltip open: no axe violations", async ({ page }) => {
      await openPage(page, "/", { banner: "hidden", skipPopup: true });
      const trigger = page.getByRole("button", { name: "About Regulated ATS" });
      await trigger.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
      // The highlights hydrate on this hover; Radix then owns the trigger and starts its open delay.
      await trigger.hover();
      await hydrated(page, "Highlights");
      await expect(trigger).toHaveAttribute("data-state", "closed");
      await trigger.hover({ position: { x: 5, y: 5 } });
      await page.clock.runFor(TOOLTIP_OPEN_DELAY_MS);
      await expect(page.locator('[role="tooltip"]')).toHaveCount(1);
      await expect(trigger).toHaveAttribute("data-state", /delayed-open|instant-open/);
      expect(await axeViolations(page, { inPage: true })).toEqual([]);
    });
  });
}

/** The Business Continuity summary at every width a visitor may use, from a small phone to a wide screen. */
test.describe("business-continuity at every width", () => {
  for (const width of [320, 375, 768, 1024, 1280, 1440, 1920]) {
    test(`${width} px: no axe violations and no sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await openPage(page, "/business-continuity", { banner: "shown" });
      expect(await axeViolations(page, { inPage: true })).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }
});

/** Waits until the popup's fade has finished (CSS transitions run in real time, not on the fake clock). */
async function expectFadedIn(page: Page) {
  await expect.poll(() => page.getByRole("dialog", { name: "Under Development" }).evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
}

test("the axe harness reports a planted violation (so a clean run means something)", async ({ page }) => {
  await openPage(page, "/privacy-policy", { banner: "hidden" });
  await page.evaluate(() => {
    const button = document.createElement("button");
    button.className = "size-4";
    document.querySelector("main")!.prepend(button);
  });
  // Both ways of running axe: in the page, as the tests above do, and the default way.
  for (const inPage of [true, false]) {
    const violations = await axeViolations(page, { inPage });
    expect(
      violations.some((line) => line.startsWith("button-name")),
      inPage ? "axe run in the page" : "axe run the default way",
    ).toBe(true);
  }
});
