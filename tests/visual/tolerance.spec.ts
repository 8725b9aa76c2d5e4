/**
 * Proof that the tolerance (tolerance.ts) catches what a visitor would notice: each small deliberate
 * change, made to a page that matches its baseline, must fail the comparison. The last test shows why
 * the threshold is lower than Playwright's default and than 0.05: each lets one of these changes through.
 * Skipped while baselines are being written (npm run test:visual:update), since a failing comparison
 * would then overwrite the baseline with the changed page.
 */
import { existsSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { openPage } from "../support/site.ts";
import { VISUAL_TOLERANCE } from "./tolerance.ts";
import { SHOTS, viewportFor } from "./shots.ts";

const shot = SHOTS.find((s) => s.name === "home-top-1440")!;
const baseline = `${shot.name}.png`;

/** Small changes a regression could make, each applied through the CSSOM (the CSP allows no injected <style>). */
const CHANGES: Array<{ what: string; apply: () => void }> = [
  {
    what: "a value card's one-pixel border drawn in the card's own colour (gone)",
    apply: () => document.querySelector<HTMLElement>("#introduction li")!.style.setProperty("border-color", "#111f36"),
  },
  {
    what: "a one-pixel line under the header (its scrolled-state border shown at the top)",
    apply: () => document.querySelector<HTMLElement>("header[data-scrolled]")!.style.setProperty("border-bottom-color", "#26395a"),
  },
  {
    what: "the secondary button's border one pixel wider",
    apply: () => document.querySelector<HTMLElement>('#introduction a[href="#contact"]')!.style.setProperty("border-width", "2px"),
  },
  {
    what: "the accent colour one step darker (emerald 500 instead of 400)",
    apply: () => document.documentElement.style.setProperty("--accent", "#10b981"),
  },
  {
    what: "the status dot alone in another green (about 60 pixels)",
    apply: () => document.querySelector<HTMLElement>(".status-dot")!.style.setProperty("background-color", "#10b981"),
  },
  {
    what: "secondary text on dark one step darker (slate 400 instead of #9FB0C8)",
    apply: () => document.documentElement.style.setProperty("--muted-on-dark", "#94a3b8"),
  },
];

async function openShot(page: Page) {
  await page.setViewportSize(viewportFor(shot.width));
  await openPage(page, shot.path, shot.open);
}

/** Whether the comparison with the baseline fails (Playwright retries until its timeout, then throws). */
async function differs(page: Page, options: { threshold?: number } = {}): Promise<boolean> {
  try {
    await expect(page).toHaveScreenshot(baseline, { timeout: 3000, ...options });
    return false;
  } catch {
    return true;
  }
}

test.beforeEach(({ browserName: _browser }, testInfo) => {
  test.skip(["all", "changed"].includes(testInfo.config.updateSnapshots), "baselines are being written");
  if (!existsSync(`tests/visual/baselines/${baseline}`)) throw new Error(`no baseline ${baseline}: npm run test:visual:update`);
});

test("the unchanged page matches its baseline (the control)", async ({ page }) => {
  await openShot(page);
  expect(await differs(page)).toBe(false);
});

for (const change of CHANGES) {
  test(`a deliberate change fails: ${change.what}`, async ({ page }) => {
    await openShot(page);
    await page.evaluate(change.apply);
    expect(await differs(page)).toBe(true);
  });
}

test(`a looser threshold misses changes that ${VISUAL_TOLERANCE.threshold} catches`, async ({ page }) => {
  // Playwright's default (0.2) lets the vanished card border through...
  await openShot(page);
  await page.evaluate(CHANGES[0]!.apply);
  expect(await differs(page, { threshold: 0.2 })).toBe(false);
  expect(await differs(page)).toBe(true);
  // ...and 0.05 the one-step change of secondary text.
  await openShot(page);
  await page.evaluate(CHANGES[5]!.apply);
  expect(await differs(page, { threshold: 0.05 })).toBe(false);
  expect(await differs(page)).toBe(true);
});
