/**
 * Visual regression: each shot of tests/visual/shots.ts against its committed baseline
 * (tests/visual/baselines/), within the tolerance of tests/visual/tolerance.ts. The clock is paused
 * (tests/support/site.ts), motion reduced and animations stopped, so a page renders the same every time.
 */
import { expect, test } from "../support/test.ts";
import { openPage } from "../support/site.ts";
import { BASELINE_CHROMIUM_MAJOR, BASELINE_FACES, BASELINE_FONT_PACKAGE, facesUsed, stackFace } from "./environment.ts";
import { SHOTS, viewportFor } from "./shots.ts";

let mismatch: string | null = null;

test.beforeAll(async ({ browser }) => {
  const { face, chromiumMajor } = await stackFace(browser);
  if (face !== "DejaVuSans") {
    mismatch =
      `The visual baselines are Debian's Chromium (its headless shell) with only ${BASELINE_FONT_PACKAGE}; this machine renders the site's ` +
      `font stack with ${face}, so every shot would differ. On Debian: apt-get install ${BASELINE_FONT_PACKAGE}.`;
  }
  if (chromiumMajor !== BASELINE_CHROMIUM_MAJOR) {
    console.log(`visual: baselines taken with Chromium ${BASELINE_CHROMIUM_MAJOR}, this is ${chromiumMajor}`);
  }
});

test.beforeEach(() => {
  if (mismatch && process.env.CI !== "true") test.skip(true, mismatch);
  if (mismatch) throw new Error(mismatch);
});

for (const path of ["/", "/terms-of-service", "/cookie-policy", "/no-such-page"]) {
  test(`fonts: ${path} renders only faces of ${BASELINE_FONT_PACKAGE}`, async ({ page }) => {
    await openPage(page, path, { banner: "shown" });
    const faces = await facesUsed(page);
    expect(faces.length).toBeGreaterThan(0);
    expect(faces.filter((face) => !BASELINE_FACES.includes(face))).toEqual([]);
  });
}

for (const shot of SHOTS) {
  test(`shot: ${shot.name}`, async ({ page }) => {
    await page.setViewportSize(viewportFor(shot.width));
    if (shot.forcedColors) await page.emulateMedia({ forcedColors: "active" });
    await openPage(page, shot.path, shot.open);
    await shot.setup?.(page);
    const name = `${shot.name}.png`;
    if (shot.capture === "page") {
      // A full-page picture draws the sticky header where the page is scrolled to: at the top, as a visitor first sees it.
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
      await expect(page.locator('header[data-scrolled="false"]')).toBeAttached();
      await expect(page).toHaveScreenshot(name, { fullPage: true });
    } else if (shot.capture === "viewport") {
      await expect(page).toHaveScreenshot(name);
    } else if (shot.capture === "top") {
      await expect(page).toHaveScreenshot(name, { clip: { x: 0, y: 0, width: shot.width, height: 240 } });
    } else {
      await expect(shot.capture(page)).toHaveScreenshot(name);
    }
  });
}
