/**
 * What the baselines assume about the machine that renders them. The site uses the system font stack,
 * so its pixels depend on the fonts installed: the baselines were taken with Debian 12's
 * `chromium-headless-shell` and only `fonts-dejavu-core` (which resolves the whole stack to DejaVu
 * Sans). Another machine renders other glyphs, and every comparison would fail for that reason alone;
 * there the visual tests are skipped with this explanation, and under CI=true they fail.
 */
import type { Browser, Page } from "@playwright/test";

/** The Debian package whose fonts the baselines show (README, "Visual tests"). */
export const BASELINE_FONT_PACKAGE = "fonts-dejavu-core";
/** PostScript names of the faces that package installs, which are all a page may render with. */
export const BASELINE_FACES = ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono", "DejaVuSansMono-Bold"];
/** The Chromium major version the baselines were taken with (reported, not enforced: minor drift stays within tolerance). */
export const BASELINE_CHROMIUM_MAJOR = 156;

/** The faces Chromium actually used for the text of the elements `selector` matches (DevTools protocol). */
export async function facesOf(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const { nodeIds } = await cdp.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector });
    const faces = new Set<string>();
    for (const nodeId of nodeIds) {
      const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
      for (const font of fonts) faces.add(font.postScriptName || font.familyName);
    }
    return [...faces].sort();
  } finally {
    await cdp.detach();
  }
}

/** The faces Chromium actually used for the text of every element of the page. */
export const facesUsed = (page: Page) => facesOf(page, "body, body *");

/** The face this machine's Chromium picks for the site's font stack, on a blank page. */
export async function stackFace(browser: Browser): Promise<{ face: string; chromiumMajor: number }> {
  const page = await browser.newPage();
  try {
    await page.setContent(
      `<p style='font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif'>Aa</p>`,
    );
    const [face = "(none)"] = await facesOf(page, "p");
    return { face, chromiumMajor: Number(browser.version().split(".")[0]) };
  } finally {
    await page.close();
  }
}
