/**
 * What a keyboard user meets: the sequential focus order, and where the focused element is drawn (on
 * top, or hidden behind the sticky header, the cookie banner or the popup). Used by the keyboard and
 * zoom tests.
 */
import type { Page } from "@playwright/test";
import { expect } from "./test.ts";
import { armScrollRest, SCROLL_START_FRAMES } from "./site.ts";

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
  return page.evaluate(focusReportInPage, KEY_FN);
}

/**
 * focused(), in the page (self-contained, for page.evaluate or, by its source, for code in the page). The
 * key function comes as its source, or already made: the page's CSP lets only the evaluation itself run
 * eval, so code that reports later (after an await) makes it beforehand.
 */
export function focusReportInPage(keyFn: string | ((el: Element) => string)): FocusReport {
  const key = typeof keyFn === "string" ? (eval(keyFn) as (el: Element) => string) : keyFn;
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
}

export interface TabStop extends FocusReport {
  /** Whether the focused element is inside tabThrough's `within` (false when none was given). */
  within: boolean;
}

/**
 * Presses Tab `stops` times and reports each stop as focused() does, judged once the page is at rest
 * (as afterScroll judges it: a focus that scrolls the page, smoothly and in real time, is judged at its
 * `scrollend`; one that does not, after SCROLL_START_FRAMES quiet frames). One round trip to the page per
 * stop besides the key press: the wait for rest, the report and the arming of the watch for the next
 * Tab are one evaluate (afterScroll and focused() take three).
 */
export async function tabThrough(page: Page, stops: number, { within }: { within?: string } = {}): Promise<TabStop[]> {
  type Walk = { tabStop: (armNext: boolean) => Promise<TabStop> };
  await page.evaluate(
    ([keyFn, reportSrc, armSrc, quietFrames, selector]) => {
      // Made now: the page's CSP lets only the evaluation itself run eval, not the later calls.
      const key = eval(keyFn) as (el: Element) => string;
      const report = eval(`(${reportSrc})`) as (keyFn: (el: Element) => string) => FocusReport;
      const arm = eval(`(${armSrc})`) as (quietFrames: number) => void;
      const rest = () => (window as unknown as { scrollRest: () => Promise<void> }).scrollRest();
      (window as unknown as Walk).tabStop = async (armNext) => {
        await rest();
        const stop = { ...report(key), within: selector !== null && !!document.activeElement?.closest(selector) };
        if (armNext) arm(quietFrames);
        return stop;
      };
      arm(quietFrames);
    },
    [KEY_FN, focusReportInPage.toString(), armScrollRest.toString(), SCROLL_START_FRAMES, within ?? null] as const,
  );
  const reports: TabStop[] = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press("Tab");
    reports.push(await page.evaluate((armNext) => (window as unknown as Walk).tabStop(armNext), i < stops - 1));
  }
  return reports;
}
