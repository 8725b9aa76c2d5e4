import { expect, test } from "../support/test.ts";
import { openPage, PAGES, WIDTHS } from "../support/site.ts";
import { prepare, tabbables, tabThrough } from "../support/keyboard.ts";

for (const width of WIDTHS) {
  test.describe(`keyboard at ${width} px`, () => {
    test.use({ viewport: { width, height: 720 } });

    for (const { name, path } of PAGES) {
      test(`${name}: Tab reaches every interactive element in DOM order, visibly focused, never hidden behind the header or cookie banner`, async ({
        page,
      }) => {
        await openPage(page, path, { banner: "shown", skipPopup: true });
        await prepare(page);
        const expected = await tabbables(page);
        expect(expected.length).toBeGreaterThan(5);
        // Focus scrolls smoothly (in real time) to an element out of view: each stop is judged once the page is at rest.
        const stops = await tabThrough(page, expected.length);
        const visited = stops.map((report) => report.key);
        const problems: string[] = [];
        for (const report of stops) {
          if (!report.indicator) problems.push(`${report.key}: no visible focus indicator`);
          if (report.visibleSamples === 0) problems.push(`${report.key}: fully hidden (behind the header, the banner, or off screen)`);
        }
        expect(visited).toEqual(expected);
        expect(problems).toEqual([]);
      });
    }
  });
}

for (const { name, path } of PAGES) {
  test(`${name}: the skip link is the first focusable element and moves focus to <main>`, async ({ page }) => {
    await openPage(page, path, { banner: "shown", skipPopup: true });
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toHaveAttribute("href", "#main");
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
    expect(new URL(page.url()).hash).toBe("#main");
  });
}

test("the focus indicator differs from the resting style (outline drawn only on focus)", async ({ page }) => {
  await openPage(page, "/privacy-policy", { banner: "hidden" });
  const link = page.locator(".prose-legal a").first();
  const outline = () => link.evaluate((el) => `${getComputedStyle(el).outlineStyle} ${getComputedStyle(el).outlineWidth}`);
  expect(await outline()).toMatch(/^none /);
  await link.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  expect(await outline()).toBe("solid 2px");
});
