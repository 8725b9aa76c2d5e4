import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";
import { clockAt, openPage, PAGES } from "../support/site.ts";

/** Every element (and ::before / ::after) whose computed animation or transition lasts longer than zero, or smooth scrolling. */
async function motion(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seconds = (value: string) => Math.max(...value.split(",").map((part) => parseFloat(part) || 0));
    const found: string[] = [];
    for (const el of document.querySelectorAll("*")) {
      for (const pseudo of [null, "::before", "::after"]) {
        const style = getComputedStyle(el, pseudo);
        if (pseudo && style.content === "none") continue;
        const label = `${el.tagName.toLowerCase()}.${(el.getAttribute("class") ?? "").split(" ").slice(0, 3).join(".")}${pseudo ?? ""}`;
        if (style.animationName !== "none" && seconds(style.animationDuration) > 0)
          found.push(`${label}: animation ${style.animationName} ${style.animationDuration}`);
        if (seconds(style.transitionDuration) > 0)
          found.push(`${label}: transition ${style.transitionProperty} ${style.transitionDuration}`);
      }
    }
    const scroll = getComputedStyle(document.documentElement).scrollBehavior;
    if (scroll !== "auto") found.push(`html: scroll-behavior ${scroll}`);
    return found;
  });
}

/** Every page at 320 px with the cookie banner shown: in the axe matrix (axe.spec.ts), on the same page load as its axe run. */
test.describe("at 320 px (WCAG 1.4.10 reflow)", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("home with the popup open: no horizontal scrolling", async ({ page }) => {
    await openPage(page, "/");
    await clockAt(page, POPUP_SHOW_AT_MS);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});

test.describe("prefers-reduced-motion: reduce", () => {
  for (const { name, path } of PAGES) {
    test(`${name}: no animation, transition or smooth scroll`, async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await openPage(page, path, { banner: "shown", skipPopup: true });
      expect(await motion(page)).toEqual([]);
    });
  }

  test("home with the popup open: it appears without a fade", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openPage(page, "/");
    await clockAt(page, POPUP_SHOW_AT_MS);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    expect(await motion(page)).toEqual([]);
  });

  test("control: without the preference the status dot pulses and scrolling is smooth; every animation ends within 5 s (WCAG 2.2.2)", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await openPage(page, "/", { banner: "hidden", skipPopup: true });
    const found = await motion(page);
    expect(found).toContain("html: scroll-behavior smooth");
    expect(found.some((line) => line.includes("animation pulse-dot"))).toBe(true);
    // The browser's own timing of each animation on the page, ::after included: the dot's pulse is among
    // them, and none moves on for more than five seconds, so none needs a control to stop it.
    const running = await page.evaluate(() =>
      document.getAnimations().map((animation) => ({
        name: animation instanceof CSSAnimation ? animation.animationName : animation.constructor.name,
        end: Number(animation.effect!.getComputedTiming().endTime),
      })),
    );
    expect(running.map(({ name }) => name)).toContain("pulse-dot");
    for (const { name, end } of running) expect(end, `${name} ends ${end} ms after it starts`).toBeLessThanOrEqual(5000);
  });
});
