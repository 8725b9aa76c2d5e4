import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { POPUP_SHOW_AT_MS, TOOLTIP_OPEN_DELAY_MS } from "../../src/shared/constants.ts";
import { axeViolations, clockAt, hydrated, openPage, PAGES, pauseClockAhead, WIDTHS } from "../support/site.ts";
import { expectBannerFitsGrownText, grownTextProblems, LOADED_PAGE_MODES } from "../support/text-size.ts";

/**
 * The axe matrix: every page x 1280 and 320 px x cookie banner shown and hidden, plus the landing page
 * with the Under Development popup open and with a tooltip open. Zero violations everywhere. With the
 * banner shown, the page as it loaded does not scroll sideways either (WCAG 1.4.10 reflow at 320 px).
 *
 * The text-size checks at these widths (WCAG 1.4.4 and 1.4.12, text-size.spec.ts) need the same page
 * loads, so they run on them: every page with the banner hidden, and the landing page's banner on a
 * first visit. Each check is made on the page as it loaded (an assertion says so before the second), and
 * a failed first check does not keep the second from running.
 */
for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const { name, path } of PAGES) {
      if (name === "home") {
        test(`${name}, cookie banner shown: no sideways scrolling, no axe violations; at text zoom 200 % the banner's words scroll inside it, its buttons stay in view`, async ({
          page,
        }) => {
          await openPage(page, path, { banner: "shown", skipPopup: true });
          expect(await sidewaysScroll(page)).toEqual({ scroll: width, client: width });
          const loaded = await pageState(page);
          expect.soft(await axeViolations(page, { inPage: true }), "axe violations").toEqual([]);
          // axe let the clock run; frozen again, as the text check had it after openPage.
          await pauseClockAhead(page);
          expect(await pageState(page), "the page is as it loaded after axe").toEqual(loaded);
          await expectBannerFitsGrownText(page);
        });
      } else {
        test(`${name}, cookie banner shown: no sideways scrolling, no axe violations`, async ({ page }) => {
          await openPage(page, path, { banner: "shown", skipPopup: true });
          expect(await sidewaysScroll(page)).toEqual({ scroll: width, client: width });
          expect(await axeViolations(page, { inPage: true })).toEqual([]);
        });
      }

      test(`${name}, cookie banner hidden: no axe violations; with ${LOADED_PAGE_MODES.join(" and ")}, no text cut off, no card overflowing, no sideways scrolling`, async ({
        page,
      }) => {
        await openPage(page, path, { banner: "hidden", skipPopup: true });
        const loaded = await pageState(page);
        // Each mode on its own: applied, checked, taken off again before the next (and before axe).
        expect
          .soft(await grownTextProblems(page), "text problems by mode")
          .toEqual(Object.fromEntries(LOADED_PAGE_MODES.map((mode) => [mode, []])));
        expect(await pageState(page), "the page is as it loaded after the text checks").toEqual(loaded);
        expect(await axeViolations(page, { inPage: true }), "axe violations").toEqual([]);
      });
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

/**
 * The Business Continuity summary at every width a visitor may use, from a small phone to a wide screen;
 * 320 and 1280 px are in the matrix above (banner shown: no sideways scrolling, no axe violations).
 */
test.describe("business-continuity at every width", () => {
  for (const width of [375, 768, 1024, 1440, 1920]) {
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

/**
 * The document's scrolling width and the window's width: equal when nothing makes the page scroll
 * sideways (WCAG 1.4.10 reflow at 320 px), and the window the width the test set.
 */
function sidewaysScroll(page: Page) {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
}

/**
 * What a check could leave changed on a page it shares with another: the document's markup (hydrated
 * islands, states, attributes), its adopted style sheets, the scroll position and the focus.
 */
function pageState(page: Page) {
  return page.evaluate(() => {
    const markup = document.documentElement.outerHTML;
    let hash = 0;
    for (let i = 0; i < markup.length; i++) hash = (Math.imul(hash, 31) + markup.charCodeAt(i)) | 0;
    return {
      markup: `${markup.length} characters, hash ${hash}`,
      adoptedStyleSheets: document.adoptedStyleSheets.length,
      scroll: [scrollX, scrollY],
      focus: document.activeElement ? `${document.activeElement.tagName.toLowerCase()}#${document.activeElement.id}` : null,
    };
  });
}
