import { expect, test } from "../support/test.ts";
import { openPage, PAGES, WIDTHS as AXE_WIDTHS } from "../support/site.ts";
import { expectBannerFitsGrownText, growText, grownTextProblems, LOADED_PAGE_MODES, textProblems } from "../support/text-size.ts";

/** WCAG 1.4.4 (resize text) and 1.4.12 (text spacing): at each width, nothing cut off, nothing sideways. */
const WIDTHS = [320, 375, 768, 1024, 1280] as const;

/**
 * At the axe matrix's widths (1280 and 320 px, in the same 800 px high window), every page's text and
 * the first visit's banner are checked on the page loads of the axe tests for the same page and banner
 * (axe.spec.ts): the same checks, one load fewer each.
 */
const OWN_LOAD_WIDTHS = WIDTHS.filter((width) => !(AXE_WIDTHS as readonly number[]).includes(width));

for (const width of WIDTHS) {
  test.describe(`text that grows, at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    if (OWN_LOAD_WIDTHS.includes(width)) {
      for (const { name, path } of PAGES) {
        test(`${name}, ${LOADED_PAGE_MODES.join(" and ")}: no text cut off, no card overflowing, no sideways scrolling`, async ({
          page,
        }) => {
          // A returning visitor: the banner is tested on its own below (it scrolls inside itself).
          await openPage(page, path, { banner: "hidden", skipPopup: true });
          // One page load, each mode on its own: applied, checked, taken off again before the next.
          expect(await grownTextProblems(page)).toEqual(Object.fromEntries(LOADED_PAGE_MODES.map((mode) => [mode, []])));
        });
      }
    }

    test("home, Chrome's default font size at 32 px: the same", async ({ page }) => {
      await growText(page, "default font size 32 px");
      await openPage(page, "/", { banner: "hidden", skipPopup: true });
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe("32px");
      expect(await textProblems(page)).toEqual([]);
    });

    if (OWN_LOAD_WIDTHS.includes(width)) {
      test("home on a first visit, text zoom 200 %: the banner's words scroll inside it, its buttons stay in view", async ({ page }) => {
        await openPage(page, "/", { banner: "shown", skipPopup: true });
        await expectBannerFitsGrownText(page);
      });
    }
  });
}
