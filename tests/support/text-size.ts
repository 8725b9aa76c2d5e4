/**
 * Text that grows, as visitors make it grow, and what it must not do to the page. The site's CSP allows
 * no injected <style>; an adopted stylesheet (CSSOM) is what a browser setting or an extension amounts to.
 */
import type { Page } from "@playwright/test";
import { expect } from "./test.ts";

export type TextMode = "text zoom 200 %" | "default font size 32 px" | "WCAG text spacing";

/**
 * - text zoom 200 %: the root's font size doubled, as Firefox's and Safari's "zoom text only" do; media
 *   queries keep the window's width (they count in the browser's default font size), so only layout that
 *   follows the page's own rem adapts;
 * - default font size 32 px: Chrome's Settings > Appearance > Font size (media queries follow it);
 * - WCAG text spacing: the four values of WCAG 1.4.12, as its bookmarklet applies them.
 */
export async function growText(page: Page, mode: TextMode) {
  if (mode === "default font size 32 px") {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Page.enable");
    await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
    return;
  }
  await page.evaluate(
    (css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    },
    mode === "text zoom 200 %" ? "html { font-size: 200% !important }" : SPACING,
  );
}

/** Undoes growText's text zoom or text spacing: the page is again as it loaded (its own sheets only). */
export async function ungrowText(page: Page) {
  await page.evaluate(() => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.slice(0, -1);
  });
}

/** The modes a loaded page's text is grown in, one after another (growText's third mode needs its own load). */
export const LOADED_PAGE_MODES = ["text zoom 200 %", "WCAG text spacing"] as const satisfies readonly TextMode[];

/**
 * In one page load, each of LOADED_PAGE_MODES on its own: applied, checked with textProblems, and taken
 * off again before the next. The problems found, by mode (each list empty when there are none).
 */
export async function grownTextProblems(page: Page): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const mode of LOADED_PAGE_MODES) {
    await growText(page, mode);
    found[mode] = await textProblems(page);
    await ungrowText(page);
  }
  return found;
}

const SPACING =
  "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important } p { margin-bottom: 2em !important }";

/**
 * What text that grew broke: sideways scrolling, text cut off by a box that hides its overflow (a box
 * that scrolls is fine: its text can be reached), and a card's content out of the card. Visually hidden
 * text (sr-only, the tooltips' descriptions: clipped to nothing on purpose) is not drawn, so not cut.
 */
export function textProblemsInPage(): string[] {
  const problems: string[] = [];
  const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
  const { scrollWidth, clientWidth } = document.documentElement;
  if (scrollWidth > clientWidth) problems.push(`the page scrolls sideways: ${scrollWidth} px in ${clientWidth} px`);
  for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
    const style = getComputedStyle(el);
    // Visually hidden (clipped to nothing on purpose): sr-only, the tooltips' descriptions.
    if (style.display === "none" || style.clipPath !== "none" || !(el.textContent ?? "").trim()) continue;
    const hides = /hidden|clip/.test(style.overflowX + style.overflowY);
    if (hides && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
      problems.push(`${name(el)} cuts its text off (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
  }
  // Cards: the site's <article> cards and the items of its bordered grid lists.
  for (const card of document.querySelectorAll("article, ul.grid > li")) {
    const box = card.getBoundingClientRect();
    for (const inner of card.querySelectorAll("h2, h3, p, a, button, svg")) {
      const r = inner.getBoundingClientRect();
      if (r.width <= 1 || getComputedStyle(inner).position === "absolute") continue;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        problems.push(`${name(inner)} runs out of its card ${name(card)}`);
    }
  }
  return problems;
}

/** The same, in a Playwright page. */
export const textProblems = (page: Page) => page.evaluate(textProblemsInPage);

/**
 * A first visit at text zoom 200 % (grown here): the banner's words scroll inside it, its buttons stay in
 * view, it takes at most half of an 800 px high window, and its last words (the Cookie Policy link) can
 * be scrolled to.
 */
export async function expectBannerFitsGrownText(page: Page) {
  await growText(page, "text zoom 200 %");
  const banner = page.getByRole("region", { name: "Cookie consent" });
  for (const button of ["Reject All", "Accept All", "Close"]) await expect(banner.getByRole("button", { name: button })).toBeInViewport();
  const box = (await banner.boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(400 + 1);
  const words = banner.locator("p");
  expect(await words.evaluate((el) => getComputedStyle(el).overflowY)).toBe("auto");
  // Its last words can be scrolled to.
  await banner.getByRole("link", { name: "Cookie Policy" }).focus();
  await expect(banner.getByRole("link", { name: "Cookie Policy" })).toBeInViewport();
}
