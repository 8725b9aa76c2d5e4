/**
 * The site's accessibility standard applied to the studio's own pages: axe with the site's rule sets
 * (tests/support/site.ts) at the studio's three sizes, and a keyboard walk that reports every Tab stop
 * with how its focus is drawn and whether it is on top (tests/support/keyboard.ts).
 */
import type { FrameLocator, JSHandle, Page } from "@playwright/test";
import { focused, tabbables, type FocusReport } from "../support/keyboard.ts";
import { axeInPage, violationLines } from "../support/site.ts";

/** A desktop, a phone, and a 1280 × 1024 screen at 400 % zoom (WCAG 1.4.10 reflow). */
export const SIZES = [
  { name: "1440", width: 1440, height: 900 },
  { name: "375", width: 375, height: 812 },
  { name: "320 × 256", width: 320, height: 256 },
] as const;

/**
 * axe's violations on a studio page, target-size on (as the site's suite has it). The review's frames
 * hold built pages in a sandbox without script, where axe cannot run (no timer fires there): axe runs in
 * the page alone (`axeInPage`: `iframes: false`), the frame elements included; `framedPageAxe` checks
 * what a frame shows.
 */
export async function studioAxe(page: Page): Promise<string[]> {
  return violationLines(await axeInPage(page));
}

/**
 * What in a frame of the studio's could take focus or move (decision 0029: a picture of the page): its
 * elements that Tab would reach, and those with an animation or a transition that takes time.
 */
export function framePicture(frame: FrameLocator): Promise<{ focusable: number; moving: number }> {
  return frame.locator("body").evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>("*")];
    const moves = (el: Element) => {
      const style = getComputedStyle(el);
      return style.animationName !== "none" || style.transitionDuration.split(",").some((d) => parseFloat(d) > 0);
    };
    return { focusable: all.filter((el) => el.tabIndex >= 0).length, moving: all.filter(moves).length };
  });
}

/** What a frame shows, opened by itself with its sandbox lifted for axe's script (the page is the studio's marked copy of a built page). */
export async function framedPageAxe(page: Page, url: string): Promise<string[]> {
  await page.route(url, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers["content-security-policy"];
    await route.fulfill({ response, headers });
  });
  await page.goto(url);
  await page.unroute(url);
  return studioAxe(page);
}

export interface Stop extends FocusReport {
  /** The focused element's tag, role and accessible name as the walk met it. */
  tag: string;
  name: string;
}

/** Every Tab stop from the top of the page to its end, in order (focus starts on nothing, as after a page load). */
export async function keyboardWalk(page: Page): Promise<Stop[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  // The elements Tab can reach: what the site's walk counts (tests/support/keyboard.ts), less what is
  // in a closed <details> (Chromium lays its content out hidden, `content-visibility: hidden`).
  const reachable = await page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, iframe, [tabindex]")].filter(
        (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.checkVisibility({ visibilityProperty: true }),
      ).length,
  );
  const count = Math.min(reachable, (await tabbables(page)).length);
  const stops: Stop[] = [];
  // A date and time field takes a Tab per part (month, day, year, hour, …): each element is one stop of
  // the walk, reported at its first part; the presses are bounded all the same.
  let previous: JSHandle | undefined;
  for (let presses = 0; stops.length < count && presses < count * 8; presses++) {
    await page.keyboard.press("Tab");
    const same = await page.evaluateHandle(() => document.activeElement);
    const isPrevious = previous !== undefined && (await page.evaluate(([a, b]) => a === b, [same, previous] as const));
    if (isPrevious) continue;
    previous = same;
    const report = await focused(page);
    const { tag, name } = await page.evaluate(() => {
      const el = document.activeElement!;
      const labelledBy = el.getAttribute("aria-labelledby");
      const label =
        el.getAttribute("aria-label") ??
        (labelledBy && document.getElementById(labelledBy)?.textContent) ??
        (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent);
      return { tag: el.tagName.toLowerCase(), name: (label || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 60) };
    });
    stops.push({ ...report, tag, name });
  }
  return stops;
}

/** The walk's problems: a stop inside or on a frame, a stop without a focus indicator, a stop hidden from view. */
export const walkProblems = (stops: Stop[]) =>
  stops.flatMap((stop) => [
    ...(stop.tag === "iframe" || stop.tag === "body" ? [`${stop.key}: focus went into a frame or off the page`] : []),
    ...(stop.indicator ? [] : [`${stop.key}: no visible focus indicator`]),
    ...(stop.visibleSamples > 0 ? [] : [`${stop.key}: hidden (off screen or covered)`]),
  ]);
