import { expect, test } from "../support/test.ts";
import { openPage, PAGES } from "../support/site.ts";
import { growText, textProblems, ungrowText, type TextMode } from "../support/text-size.ts";

/** WCAG 1.4.4 (resize text) and 1.4.12 (text spacing): at each width, nothing cut off, nothing sideways. */
const WIDTHS = [320, 375, 768, 1024, 1280] as const;
const MODES: TextMode[] = ["text zoom 200 %", "WCAG text spacing"];

for (const width of WIDTHS) {
  test.describe(`text that grows, at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const { name, path } of PAGES) {
      test(`${name}, ${MODES.join(" and ")}: no text cut off, no card overflowing, no sideways scrolling`, async ({ page }) => {
        // A returning visitor: the banner is tested on its own below (it scrolls inside itself).
        await openPage(page, path, { banner: "hidden", skipPopup: true });
        // One page load, each mode on its own: applied, checked, taken off again before the next.
        const found: Record<string, string[]> = {};
        for (const mode of MODES) {
          await growText(page, mode);
          found[mode] = await textProblems(page);
          await ungrowText(page);
        }
        expect(found).toEqual(Object.fromEntries(MODES.map((mode) => [mode, []])));
      });
    }

    test("home, Chrome's default font size at 32 px: the same", async ({ page }) => {
      await growText(page, "default font size 32 px");
      await openPage(page, "/", { banner: "hidden", skipPopup: true });
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe("32px");
      expect(await textProblems(page)).toEqual([]);
    });

    test("home on a first visit, text zoom 200 %: the banner's words scroll inside it, its buttons stay in view", async ({ page }) => {
      await openPage(page, "/", { banner: "shown", skipPopup: true });
      await growText(page, "text zoom 200 %");
      const banner = page.getByRole("region", { name: "Cookie consent" });
      for (const button of ["Reject All", "Accept All", "Close"])
        await expect(banner.getByRole("button", { name: button })).toBeInViewport();
      const box = (await banner.boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(400 + 1);
      const words = banner.locator("p");
      expect(await words.evaluate((el) => getComputedStyle(el).overflowY)).toBe("auto");
      // Its last words can be scrolled to.
      await banner.getByRole("link", { name: "Cookie Policy" }).focus();
      await expect(banner.getByRole("link", { name: "Cookie Policy" })).toBeInViewport();
    });
  });
}
