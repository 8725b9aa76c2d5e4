import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { afterScroll, openPage } from "../support/site.ts";

/** WCAG 1.4.13 (content on hover or focus) and 2.1.1, as keyboard users and blocked-script visitors meet the tooltips. */

const trigger = (page: Page, name: string) => page.getByRole("button", { name });

/** How many points of a grid over the element are drawn by it (not cut off, not under something else, on screen). */
const drawnShare = (el: Locator) =>
  el.evaluate((node) => {
    const box = node.getBoundingClientRect();
    let seen = 0;
    let all = 0;
    for (let i = 1; i <= 6; i++)
      for (let j = 1; j <= 3; j++) {
        all++;
        const x = box.left + (box.width * i) / 7;
        const y = box.top + (box.height * j) / 4;
        const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null;
        if (hit && node.contains(hit)) seen++;
      }
    return seen / all;
  });

/** Tabs from the top of the page until `target` has focus, each Tab judged once the page is at rest. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 80; i++) {
    await afterScroll(page, () => page.keyboard.press("Tab"));
    if (await target.evaluate((el) => el === document.activeElement || el.id === document.activeElement?.id)) return;
  }
  throw new Error("Tab never reached the trigger");
}

for (const [width, height, name] of [
  [1280, 800, "About Bank-Grade Security"],
  [320, 640, "About Bank-Grade Security"],
  [320, 640, "About Ultra-Low Latency"],
] as const) {
  test(`at ${width} × ${height}, "${name}" opened by the Tab that scrolled it into view stays open while it has focus, whatever scrolls`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await openPage(page, "/", { banner: "hidden", skipPopup: true });
    await tabTo(page, trigger(page, name));
    const tooltip = page.getByRole("tooltip");
    await expect(tooltip).toBeVisible();
    // The page scrolls under it (a wheel, a restored position, the trigger's own smooth scroll): it stays.
    for (const by of [3, 120, -60]) {
      await afterScroll(page, () => page.evaluate((y) => window.scrollBy({ top: y, behavior: "instant" }), by));
      await expect(tooltip).toBeVisible();
      await expect(trigger(page, name)).toBeFocused();
    }
    await page.keyboard.press("Escape");
    await expect(tooltip).toHaveCount(0);
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(tooltip).toBeVisible();
    // Leaving the trigger closes its tooltip (the next stop may open its own).
    await page.keyboard.press("Tab");
    await expect(trigger(page, name)).toHaveAttribute("data-state", "closed");
  });
}

test.describe("with every /_astro script blocked (the tooltips stay their CSS fallback)", () => {
  test.beforeEach(async ({ page }) => {
    await page.route("**/_astro/*.js", (route) => route.abort("blockedbyclient"));
  });

  for (const width of [1280, 320]) {
    test(`at ${width} px each highlight's tooltip is whole and on top on hover, stays while the pointer moves onto it, and Escape hides it`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await openPage(page, "/", { banner: "hidden", skipPopup: true });
      for (const name of ["Bank-Grade Security", "Dedicated Support", "Regulated ATS", "Ultra-Low Latency"]) {
        const button = trigger(page, `About ${name}`);
        const tip = page.locator(`#${await button.getAttribute("aria-describedby")}`);
        await button.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
        await button.hover();
        // Shown after the open delay (a CSS animation, in real time): all of it drawn, nothing over it.
        await expect.poll(() => drawnShare(tip), { message: `${name}: the whole tooltip is drawn` }).toBe(1);
        // The pointer moves from the trigger down onto the tooltip, through the gap between them.
        const t = (await tip.boundingBox())!;
        const b = (await button.boundingBox())!;
        await page.mouse.move(b.x + b.width / 2, t.y - 2, { steps: 4 });
        await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2, { steps: 4 });
        expect(await drawnShare(tip)).toBe(1);
        await page.keyboard.press("Escape");
        await expect.poll(() => drawnShare(tip)).toBe(0);
        // Dismissed, it stays hidden while the pointer stays; it comes back on a new hover.
        await page.mouse.move(t.x + t.width / 2 + 1, t.y + t.height / 2);
        expect(await drawnShare(tip)).toBe(0);
        await page.mouse.move(0, 0);
      }
    });
  }

  test("keyboard focus shows a tooltip at once, and Escape hides it until focus moves on", async ({ page }) => {
    await openPage(page, "/", { banner: "hidden", skipPopup: true });
    const button = trigger(page, "About Regulated ATS");
    const tip = page.locator(`#${await button.getAttribute("aria-describedby")}`);
    await tabTo(page, button);
    await expect.poll(() => drawnShare(tip)).toBe(1);
    await page.keyboard.press("Escape");
    await expect.poll(() => drawnShare(tip)).toBe(0);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Shift+Tab");
    await expect(button).toBeFocused();
    await expect.poll(() => drawnShare(tip)).toBe(1);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the highlights' explanations are on the page, and no button is left that does nothing", async ({ page }) => {
    await page.goto("/");
    const highlights = page.getByRole("list", { name: "Highlights" });
    for (const words of ["AES-256 encryption", "around the clock", "alternative trading system", "under one millisecond"])
      await expect(highlights.getByText(words)).toBeVisible();
    await expect(highlights.getByRole("button")).toHaveCount(0);
  });
});
