import { expect, test, type Page } from "@playwright/test";
import { clockAt, openPage, PAGES } from "../support/site";

/**
 * Windows high-contrast mode (forced colours, as Chromium emulates it) replaces every background with
 * the system's, so whatever a background alone drew disappears. Each page is measured in normal colours
 * first: everything that looks like a button then (a button, or a link with a fill or an edge) and every
 * boxed element (a border on all four sides) must still show an edge, from computed styles, once colours
 * are forced. Screenshots of the same states are in tests/visual/shots.ts.
 */

interface Edge {
  what: string;
  width: number;
  style: string;
  color: string;
  background: string;
}

/** Tags the elements that look like buttons or boxes in normal colours (data-fc), so they can be found again. */
async function tagBoundedElements(page: Page) {
  return page.evaluate(() => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      // Not visually hidden (sr-only clips to nothing: the skip link until it is focused, checked below).
      return r.width > 1 && r.height > 1 && s.visibility !== "hidden" && s.clipPath !== "inset(50%)";
    };
    const tagged: string[] = [];
    const tag = (el: Element, kind: string) => {
      el.setAttribute("data-fc", kind);
      tagged.push(`${kind}: ${(el.textContent || el.getAttribute("aria-label") || el.tagName).trim().slice(0, 40)}`);
    };
    for (const el of document.querySelectorAll("button, a")) {
      if (!visible(el)) continue;
      const s = getComputedStyle(el);
      const filled = s.backgroundColor !== "rgba(0, 0, 0, 0)";
      const edged = parseFloat(s.borderTopWidth) > 0 && s.borderTopStyle !== "none";
      if (el.tagName === "BUTTON") tag(el, "button");
      else if (filled || edged) tag(el, "link-button");
    }
    for (const el of document.querySelectorAll("body *:not(button):not(a)")) {
      if (!visible(el)) continue;
      const s = getComputedStyle(el);
      const sides = [s.borderTopWidth, s.borderRightWidth, s.borderBottomWidth, s.borderLeftWidth].map(parseFloat);
      if (sides.every((w) => w >= 1) && parseFloat(s.borderTopLeftRadius) >= 8) tag(el, "box");
    }
    return tagged;
  });
}

/** In forced colours: each tagged element's top edge (all four for boxes are checked alike). */
async function edges(page: Page): Promise<Edge[]> {
  return page.locator("[data-fc]").evaluateAll((els) =>
    els.map((el) => {
      const s = getComputedStyle(el);
      const sides = ["Top", "Right", "Bottom", "Left"] as const;
      const thinnest = Math.min(...sides.map((side) => parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`))));
      const styles = new Set(sides.map((side) => s.getPropertyValue(`border-${side.toLowerCase()}-style`)));
      return {
        what: `${el.getAttribute("data-fc")}: ${(el.textContent || el.getAttribute("aria-label") || el.tagName).trim().slice(0, 40)}`,
        width: thinnest,
        style: [...styles].join(","),
        color: s.borderTopColor,
        background: s.backgroundColor,
      };
    }),
  );
}

const missing = (list: Edge[]) =>
  list.filter((e) => e.width < 1 || /none|hidden/.test(e.style) || e.color === e.background || /rgba\(.*, 0\)$/.test(e.color));

for (const { name, path } of PAGES) {
  test(`${name}: in forced colours every button, link-button and box keeps a visible edge`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, path, { banner: "shown" });
    const tagged = await tagBoundedElements(page);
    // The banner's two choices are among them on every page; on "/" the hero's two buttons too.
    expect(tagged).toEqual(expect.arrayContaining(["button: Reject All", "button: Accept All"]));
    if (path === "/") expect(tagged).toEqual(expect.arrayContaining(["link-button: Explore Our Platform", "link-button: Partner With Us"]));
    if (name === "404") expect(tagged).toContain("link-button: Return to Home");

    await page.emulateMedia({ forcedColors: "active" });
    expect(await page.evaluate(() => matchMedia("(forced-colors: active)").matches)).toBe(true);
    expect(missing(await edges(page))).toEqual([]);

    // The cookie banner keeps the line that separates it from the page.
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toHaveCSS("border-top-style", "solid");
    expect(parseFloat(await banner.evaluate((el) => getComputedStyle(el).borderTopWidth))).toBeGreaterThanOrEqual(1);

    // Focus stays visible: a ring around the focused control, and around the skip link when it appears.
    for (const target of [page.getByRole("button", { name: "Accept All" }), page.getByRole("link", { name: "Skip to content" })]) {
      await target.focus();
      await expect(target).toHaveCSS("outline-style", "solid");
      expect(parseFloat(await target.evaluate((el) => getComputedStyle(el).outlineWidth))).toBeGreaterThanOrEqual(2);
    }
  });
}

test("home: in forced colours the status dot, the drawing, the popup's edge and its progress bar stay perceivable", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ forcedColors: "active" });
  await openPage(page, "/", { banner: "hidden" });

  // The status dot is drawn in the text colour, not the (replaced) background.
  const dot = page.locator(".status-dot");
  const [dotColour, headerColour] = await dot.evaluate((el) => [
    getComputedStyle(el).backgroundColor,
    getComputedStyle(el.closest("header")!).backgroundColor,
  ]);
  expect(dotColour).not.toBe(headerColour);
  expect(dotColour).not.toMatch(/rgba\(.*, 0\)$/);
  expect((await dot.boundingBox())!.width).toBeGreaterThanOrEqual(8);

  // The drawing takes system colours: its lines and labels are not the page's own (invisible) palette.
  const strokes = await page.locator(".settle-net, .settle-gross").evaluateAll((els) => els.map((el) => getComputedStyle(el).stroke));
  const canvas = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  for (const stroke of strokes) expect(stroke).not.toBe(canvas);
  expect(strokes).not.toContain("rgb(52, 211, 153)");

  // The popup keeps its edge (it shows at 4 s of page time).
  await clockAt(page, 4000);
  const dialog = page.getByRole("dialog", { name: "Under Development" });
  await expect(dialog).toBeVisible();
  const edge = await dialog.evaluate((el) => {
    const s = getComputedStyle(el);
    return { width: parseFloat(s.borderTopWidth), style: s.borderTopStyle, color: s.borderTopColor, background: s.backgroundColor };
  });
  expect(edge.width).toBeGreaterThanOrEqual(1);
  expect(edge.style).toBe("solid");
  expect(edge.color).not.toBe(edge.background);
  // Its progress bar still shows how far: the filled part in the text colour, the track outlined.
  const bar = await dialog.getByRole("progressbar").evaluate((el) => ({
    fill: getComputedStyle(el.firstElementChild!).backgroundColor,
    track: getComputedStyle(el).backgroundColor,
    edge: getComputedStyle(el).borderTopStyle,
  }));
  expect(bar.fill).not.toBe(bar.track);
  expect(bar.edge).toBe("solid");
});
