import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { routeFormProvider } from "../support/form-provider";
import { afterFrames, clockAt, hydrated, pausedClock } from "../support/site";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Under Development" });
const popup = (page: Page) => page.locator("[data-popup-phase]");
const bodyActive = (page: Page) => page.evaluate(() => document.body.classList.contains("popup-active"));

test.beforeEach(async ({ page, context }) => {
  await routeFormProvider(context);
  // Paused before the page runs: its time is what the test makes it, on any machine.
  await pausedClock(page);
});

/** The landing page at 3 s: the popup's island has hydrated (it does at 2.5 s), the popup is not up yet. */
async function openLanding(page: Page) {
  await page.goto("/");
  await clockAt(page, 3000);
  await hydrated(page, "UnderDevelopmentPopup");
}

test("appears at 4000 ms over a dark overlay, fades at 12000 ms and is removed at 12500 ms", async ({ page }) => {
  await openLanding(page);
  await clockAt(page, 3999);
  // The page renders what its timers decided in its next frames: after two, nothing is on its way.
  await afterFrames(page);
  await expect(dialog(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);

  await page.clock.runFor(1);
  await expect(dialog(page)).toBeVisible();
  expect(await bodyActive(page)).toBe(true);
  const bar = dialog(page).getByRole("progressbar");
  await expect(bar).toHaveAttribute("aria-valuenow", "75");
  const [barWidth, trackWidth] = await bar.evaluate((el) => [
    (el.firstElementChild as HTMLElement).getBoundingClientRect().width,
    el.getBoundingClientRect().width,
  ]);
  expect(barWidth / trackWidth).toBeCloseTo(0.75, 2);
  const overlay = await page.locator("[data-popup-phase] > [aria-hidden=true]").evaluate((el) => getComputedStyle(el).backgroundColor);
  // ink-950 at 70 %, whatever colour space the browser reports it in.
  expect(overlay).toMatch(/[,/] 0\.7\)$/);

  await clockAt(page, 11999);
  await afterFrames(page);
  await expect(popup(page)).toHaveAttribute("data-popup-phase", "visible");
  await page.clock.runFor(1);
  await expect(popup(page)).toHaveAttribute("data-popup-phase", "hiding");
  await expect(dialog(page)).toHaveCSS("opacity", "0");
  await page.clock.runFor(499);
  await afterFrames(page);
  await expect(dialog(page)).toHaveCount(1);
  await page.clock.runFor(1);
  await expect(dialog(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);
});

test("does not steal focus, and Escape dismisses it", async ({ page }) => {
  await openLanding(page);
  const explore = page.getByRole("link", { name: "Explore Our Platform" });
  await explore.focus();
  await clockAt(page, 4000);
  await expect(dialog(page)).toBeVisible();
  await expect(explore).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(popup(page)).toHaveAttribute("data-popup-phase", "hiding");
  await page.clock.runFor(500);
  await expect(dialog(page)).toHaveCount(0);
  await expect(explore).toBeFocused();
});

test("the close button dismisses it early", async ({ page }) => {
  await openLanding(page);
  await clockAt(page, 5000);
  await dialog(page).getByRole("button", { name: "Close" }).click();
  await page.clock.runFor(500);
  await expect(dialog(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);
});

test("a click on the overlay dismisses it", async ({ page }) => {
  await openLanding(page);
  await clockAt(page, 6000);
  await page.mouse.click(5, 300);
  await page.clock.runFor(500);
  await expect(dialog(page)).toHaveCount(0);
});

test("with reduced motion it appears without a transition", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await openLanding(page);
  await clockAt(page, 4000);
  await expect(dialog(page)).toBeVisible();
  const durations = await dialog(page).evaluate((el) => getComputedStyle(el).transitionDuration);
  expect(durations.split(",").every((d) => parseFloat(d) === 0)).toBe(true);
});

for (const path of ["/cookie-policy", "/terms-of-service"]) {
  test(`does not appear on ${path} at any moment it would show on the landing page (4 s to 12 s)`, async ({ page }) => {
    await page.goto(path);
    for (const at of [4000, 6000, 8000, 10_000, 11_999]) {
      await clockAt(page, at);
      await afterFrames(page);
      await expect(dialog(page), `${path} at ${at} ms`).toHaveCount(0);
      expect(await bodyActive(page)).toBe(false);
    }
  });
}

test("leaving the page cancels its timers; a restored page shows no stale popup", async ({ page }) => {
  await openLanding(page);
  await clockAt(page, 5000);
  await expect(dialog(page)).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true })));
  await expect(dialog(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
  // Past every moment it had left (hiding at 12 s, removal at 12.5 s), then two rendered frames.
  await page.clock.runFor(10_000);
  await afterFrames(page);
  await expect(dialog(page)).toHaveCount(0);
});
