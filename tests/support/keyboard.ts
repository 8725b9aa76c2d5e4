/**
 * What a keyboard user meets: the sequential focus order, and where the focused element is drawn (on
 * top, or hidden behind the sticky header, the cookie banner or the popup). Used by the keyboard and
 * zoom tests.
 */
import type { Page } from "@playwright/test";
import { expect } from "./test.ts";

/** A readable key for a focusable element, stable across React remounts (Radix replaces tooltip triggers). */
const KEY_FN = `(el) => [el.tagName.toLowerCase(), el.id, el.getAttribute("href"), el.getAttribute("aria-label"), (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40)].join("|")`;

/** Elements in the sequential focus order, by DOM order (the site uses no positive tabindex). */
export async function tabbables(page: Page): Promise<string[]> {
  return page.evaluate((keyFn) => {
    const key = eval(keyFn) as (el: Element) => string;
    const selector = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, iframe, [tabindex]:not([tabindex="-1"])';
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
      .map(key);
  }, KEY_FN);
}

/**
 * Hover every tooltip trigger once so the islands are hydrated (they hydrate on intent) and Radix is
 * loaded before tabbing (loading it remounts the triggers, which would race with the key presses). The
 * clock stays paused, so no tooltip opens.
 */
export async function prepare(page: Page) {
  for (const trigger of await page.locator("[data-tip-trigger]").all()) {
    await trigger.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
    await trigger.hover();
    // Nothing here is timed: the island wakes on the hover, and Radix takes the trigger over once loaded.
    await expect(trigger.locator("xpath=ancestor::astro-island[1]")).not.toHaveAttribute("ssr", { timeout: 10_000 });
    await expect(trigger).toHaveAttribute("data-state", "closed");
  }
  const form = page.locator("[data-form-state]");
  if ((await form.count()) > 0) {
    await form.scrollIntoViewIfNeeded();
    // Undecided: the click-to-load control; accepted: the fallback (the provider is routed to fail).
    await expect(form).toHaveAttribute("data-form-state", /^(needs-click|failed)$/);
  }
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  // Nothing focused, and the next Tab starts at the top of the page, as for a visitor who has not used
  // the keyboard yet (the popup, gone by now, took focus and gave it back).
  await page.evaluate(() => {
    const root = document.documentElement;
    root.tabIndex = -1;
    root.focus({ preventScroll: true });
    root.blur();
    root.removeAttribute("tabindex");
  });
}

export interface FocusReport {
  key: string;
  indicator: string | null;
  visibleSamples: number;
}

/** The focused element: its key, how its focus is drawn, and how many sample points of it are on top. */
export async function focused(page: Page): Promise<FocusReport> {
  return page.evaluate((keyFn) => {
    const key = eval(keyFn) as (el: Element) => string;
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    const outline =
      style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 ? `outline ${style.outlineWidth} ${style.outlineColor}` : null;
    const shadow = style.boxShadow !== "none" ? `box-shadow ${style.boxShadow}` : null;
    // Sample a grid over each of its boxes (a link wrapping over two lines has two) and count the points
    // where it, and not the sticky header, the banner or anything else, is the topmost element.
    let visibleSamples = 0;
    for (const rect of el.getClientRects()) {
      for (let i = 1; i <= 5; i++) {
        for (let j = 1; j <= 3; j++) {
          const x = rect.left + (rect.width * i) / 6;
          const y = rect.top + (rect.height * j) / 4;
          if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
          const hit = document.elementFromPoint(x, y);
          if (hit && (hit === el || el.contains(hit))) visibleSamples++;
        }
      }
    }
    return { key: key(el), indicator: outline ?? shadow, visibleSamples };
  }, KEY_FN);
}
