/**
 * The landing page's sections below the first screen, laid out as the visitor nears them on a fresh
 * visit (src/client/head/sections.ts): every way of jumping in the page still lands exactly where a page
 * laid out whole lands, on a slow phone before anything has hydrated, and a page the browser restores
 * (a reload, a visit to a #fragment) is laid out whole from the start.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { routeFormProvider } from "../support/form-provider";
import { afterScroll, closePopupWhenShown, hydratedCount } from "../support/site";
import { slowPhone } from "../support/throttle.ts";

const LAZY = ["features", "industries", "why-us"];
const VIEWPORTS = [
  { width: 375, height: 800 },
  { width: 1440, height: 800 },
];

test.beforeEach(async ({ context, page }) => {
  await routeFormProvider(context);
  await closePopupWhenShown(page);
});

const isLazy = (page: Page) => page.evaluate(() => "lazy" in document.documentElement.dataset);

/** Where a section's top sits in the window, and where the page's own scroll margin puts a jump's target. */
const placeOf = (page: Page, id: string) =>
  page.locator(`#${id}`).evaluate((section) => ({
    top: Math.round(section.getBoundingClientRect().top),
    target: Math.round(parseFloat(getComputedStyle(section).scrollMarginTop)),
  }));

/** The sections the browser skips (reported by its `contentvisibilityautostatechange` events), from the first paint. */
async function watchSkipped(page: Page) {
  await page.addInitScript(() => {
    const skipped = new Set<string>();
    (window as unknown as { skipped: Set<string> }).skipped = skipped;
    addEventListener(
      "contentvisibilityautostatechange",
      (event) => {
        const id = (event.target as Element).id || (event.target as Element).localName;
        if ((event as Event & { skipped: boolean }).skipped) skipped.add(id);
        else skipped.delete(id);
      },
      true,
    );
  });
  return () => page.evaluate(() => [...(window as unknown as { skipped: Set<string> }).skipped].sort());
}

test("a fresh visit skips the layout of the sections below the first screen until they are neared", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const skipped = await watchSkipped(page);
  await page.goto("/");
  expect(await isLazy(page)).toBe(true);
  // At 375 × 800 the Features section starts within the browser's margin of the window, so it is laid out.
  await expect.poll(skipped).toEqual(["footer", "industries", "why-us"]);
  // Scrolled by hand to the Why Us section, it and its neighbours are laid out; the page stays lazy.
  await page.mouse.move(200, 400);
  while ((await page.evaluate(() => document.getElementById("why-us")!.getBoundingClientRect().top)) > 400) await page.mouse.wheel(0, 400);
  await expect.poll(skipped).not.toContain("why-us");
  expect(await isLazy(page)).toBe(true);
});

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px, on a slow phone, before anything has hydrated`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
      await slowPhone(page);
    });

    for (const [name, id] of [
      ["Features", "features"],
      ["Contact", "contact"],
    ] as const) {
      test(`the header's ${name} link lands #${id} exactly below the header`, async ({ page }) => {
        await page.goto("/", { waitUntil: "commit" });
        const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name });
        await link.waitFor();
        expect(await isLazy(page)).toBe(true);
        expect(await hydratedCount(page)).toBe(0);
        await afterScroll(page, () => link.click());
        expect(await isLazy(page)).toBe(false);
        const { top, target } = await placeOf(page, id);
        expect(top).toBe(target);
      });
    }

    test("a fragment typed into the address (hashchange) lands exactly", async ({ page }) => {
      await page.goto("/");
      expect(await isLazy(page)).toBe(true);
      const entries = await page.evaluate(() => history.length);
      await afterScroll(page, () => page.evaluate(() => (location.hash = "#why-us")));
      const { top, target } = await placeOf(page, "why-us");
      expect(top).toBe(target);
      // One entry in the history for the one jump.
      expect(await page.evaluate(() => history.length)).toBe(entries + 1);
    });

    test("End reaches the foot of the page", async ({ page }) => {
      await page.goto("/");
      expect(await isLazy(page)).toBe(true);
      await page.locator("h1").click();
      await afterScroll(page, () => page.keyboard.press("End"));
      const { y, max } = await page.evaluate(() => ({ y: Math.round(scrollY), max: document.documentElement.scrollHeight - innerHeight }));
      expect(y).toBe(max);
      await expect(page.getByRole("contentinfo")).toBeInViewport();
    });
  });
}

test("a visit to a #fragment and a reload are laid out whole from the start, and land where they were", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/#industries");
  expect(await isLazy(page)).toBe(false);
  await expect.poll(async () => (await placeOf(page, "industries")).top).toBe((await placeOf(page, "industries")).target);
  await page.goto("/");
  expect(await isLazy(page)).toBe(true);
  // Halfway down by hand, then a reload: the browser restores the same place in a page laid out whole.
  await page.mouse.move(200, 400);
  while ((await page.evaluate(() => scrollY)) < 4000) await page.mouse.wheel(0, 500);
  await afterScroll(page, async () => {});
  const before = await page.evaluate(() => ({
    y: scrollY,
    why: Math.round(document.getElementById("why-us")!.getBoundingClientRect().top),
  }));
  await page.reload();
  expect(await isLazy(page)).toBe(false);
  await expect
    .poll(() => page.evaluate(() => ({ y: scrollY, why: Math.round(document.getElementById("why-us")!.getBoundingClientRect().top) })))
    .toEqual(before);
});

test("printed, every section is laid out", async ({ page }) => {
  await page.goto("/");
  await page.emulateMedia({ media: "print" });
  for (const id of LAZY) expect(await page.locator(`#${id}`).evaluate((el) => getComputedStyle(el).contentVisibility)).toBe("visible");
  await page.emulateMedia({ media: "screen" });
  expect(await page.locator("#why-us").evaluate((el) => getComputedStyle(el).contentVisibility)).toBe("auto");
});
