import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { routeFormProvider } from "../../testing/form-provider";
import { afterFrames, clockAt, hydratedCount, pausedClock } from "../support/site";
import { POPUP_AFTER_PRESS_MS, POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Under Development" });
const popup = (page: Page) => page.locator("[data-popup-phase]");
const bodyActive = (page: Page) => page.evaluate(() => document.body.classList.contains("popup-active"));

test.beforeEach(async ({ page, context }) => {
  await routeFormProvider(context);
  // Paused before the page runs: its time is what the test makes it, on any machine.
  await pausedClock(page);
});

test("appears at 4000 ms over a dark overlay, fades at 12000 ms and is removed at 12500 ms", async ({ page }) => {
  await page.goto("/");
  await clockAt(page, POPUP_SHOW_AT_MS - 1);
  // The page renders what its timers decided in its next frames: after two, nothing is on its way.
  await afterFrames(page);
  await expect(popup(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);

  await page.clock.runFor(1);
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page)).toHaveAttribute("aria-modal", "true");
  expect(await bodyActive(page)).toBe(true);
  const bar = dialog(page).getByRole("progressbar");
  await expect(bar).toHaveAttribute("aria-valuenow", "75");
  await expect(dialog(page)).toContainText("75% complete");
  const [barWidth, trackWidth] = await bar.evaluate((el) => [
    (el.firstElementChild as HTMLElement).getBoundingClientRect().width,
    el.getBoundingClientRect().width,
  ]);
  expect(barWidth / trackWidth).toBeCloseTo(0.75, 2);
  const overlay = await page.locator("[data-popup-phase] > [aria-hidden=true]").evaluate((el) => getComputedStyle(el).backgroundColor);
  // ink-950 at 70 %, whatever colour space the browser reports it in.
  expect(overlay).toMatch(/[,/] 0\.7\)$/);
  // It fades in: from transparent, in CSS (the transition runs in real time).
  await expect(dialog(page)).toHaveCSS("opacity", "1");

  await clockAt(page, POPUP_HIDE_AT_MS - 1);
  await afterFrames(page);
  await expect(popup(page)).toHaveAttribute("data-popup-phase", "visible");
  await page.clock.runFor(1);
  await expect(popup(page)).toHaveAttribute("data-popup-phase", "hiding");
  await expect(page.locator("[role=dialog]")).toHaveCSS("opacity", "0");
  await page.clock.runFor(POPUP_REMOVE_AFTER_MS - 1);
  await afterFrames(page);
  await expect(popup(page)).toHaveCount(1);
  await page.clock.runFor(1);
  await expect(popup(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);
});

test("it needs no bundle: with every /_astro script blocked it shows, closes and no island has run", async ({ page }) => {
  await page.route("**/_astro/*.js", (route) => route.abort("blockedbyclient"));
  await page.goto("/");
  await clockAt(page, POPUP_SHOW_AT_MS);
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole("button", { name: "Close" }).click();
  await page.clock.runFor(POPUP_REMOVE_AFTER_MS);
  await expect(popup(page)).toHaveCount(0);
  expect(await hydratedCount(page)).toBe(0);
});

test("nothing but the inline scripts has run by the time it shows: no script was requested", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto("/");
  await clockAt(page, POPUP_SHOW_AT_MS);
  await expect(dialog(page)).toBeVisible();
  await page.clock.runFor(POPUP_HIDE_AT_MS + POPUP_REMOVE_AFTER_MS - POPUP_SHOW_AT_MS);
  await expect(popup(page)).toHaveCount(0);
  await afterFrames(page);
  expect(scripts).toEqual([]);
});

for (const [how, close] of [
  ["the close button", (page: Page) => dialog(page).getByRole("button", { name: "Close" }).click()],
  ["Escape", (page: Page) => page.keyboard.press("Escape")],
  // Outside the dialog's box, on the overlay.
  ["a click on the overlay", (page: Page) => page.mouse.click(5, 300)],
] as const) {
  test(`${how} closes it early: it fades out and leaves 500 ms later`, async ({ page }) => {
    await page.goto("/");
    await clockAt(page, 6000);
    await expect(dialog(page)).toBeVisible();
    await close(page);
    await expect(popup(page)).toHaveAttribute("data-popup-phase", "hiding");
    expect(await bodyActive(page)).toBe(true);
    await page.clock.runFor(POPUP_REMOVE_AFTER_MS);
    await expect(popup(page)).toHaveCount(0);
    expect(await bodyActive(page)).toBe(false);
    // Closed early, it does not come back at its own times.
    await page.clock.runFor(POPUP_HIDE_AT_MS);
    await afterFrames(page);
    await expect(popup(page)).toHaveCount(0);
  });
}

test.describe("a press under way when it is due ends first: the tap lands on the control it began on", () => {
  const accept = (page: Page) => page.locator("[data-consent-banner]").getByRole("button", { name: "Accept All" });

  test("with a mouse, Accept All is taken and it shows 300 ms after the release", async ({ page }) => {
    await page.goto("/");
    const box = (await accept(page).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await clockAt(page, POPUP_SHOW_AT_MS + 100);
    await afterFrames(page);
    await expect(popup(page)).toHaveCount(0);
    await page.mouse.up();
    await expect(page.locator("html")).toHaveAttribute("data-consent", "accepted");
    await page.clock.runFor(POPUP_AFTER_PRESS_MS - 1);
    await afterFrames(page);
    await expect(popup(page)).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole("button", { name: "Close" })).toBeFocused();
    // Its own times are kept: it fades at 12 s.
    await clockAt(page, POPUP_HIDE_AT_MS);
    await expect(popup(page)).toHaveAttribute("data-popup-phase", "hiding");
  });

  test("with a finger, whose click comes in a task of its own", async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    try {
      await routeFormProvider(context);
      const page = await context.newPage();
      await pausedClock(page);
      await page.goto("/");
      const box = (await accept(page).boundingBox())!;
      const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const cdp = await context.newCDPSession(page);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
      await clockAt(page, POPUP_SHOW_AT_MS + 100);
      await afterFrames(page);
      await expect(popup(page)).toHaveCount(0);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      await expect(page.locator("html")).toHaveAttribute("data-consent", "accepted");
      await page.clock.runFor(POPUP_AFTER_PRESS_MS);
      await expect(dialog(page)).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("a right-click's menu takes its release: the press ends with the menu, and it shows at 4 s", async ({ page }) => {
    await page.goto("/");
    await page.mouse.move(5, 300);
    await page.mouse.down({ button: "right" });
    try {
      await clockAt(page, POPUP_SHOW_AT_MS);
      await expect(dialog(page)).toBeVisible();
    } finally {
      await page.mouse.up({ button: "right" });
    }
  });

  test("a press held past 12 s: it never shows", async ({ page }) => {
    await page.goto("/");
    await page.mouse.move(5, 300);
    await page.mouse.down();
    await clockAt(page, POPUP_SHOW_AT_MS + 100);
    await afterFrames(page);
    await expect(popup(page)).toHaveCount(0);
    await clockAt(page, POPUP_HIDE_AT_MS + 1);
    await page.mouse.up();
    await page.clock.runFor(POPUP_AFTER_PRESS_MS + POPUP_REMOVE_AFTER_MS);
    await afterFrames(page);
    await expect(popup(page)).toHaveCount(0);
    expect(await bodyActive(page)).toBe(false);
  });
});

test("with reduced motion it appears and goes without a transition", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  await clockAt(page, POPUP_SHOW_AT_MS);
  await expect(dialog(page)).toBeVisible();
  for (const el of [dialog(page), page.locator("[data-popup-phase] > [aria-hidden=true]")]) {
    const durations = await el.evaluate((node) => getComputedStyle(node).transitionDuration);
    expect(durations.split(",").every((d) => parseFloat(d) === 0)).toBe(true);
  }
  await expect(dialog(page)).toHaveCSS("opacity", "1");
});

for (const path of ["/cookie-policy", "/terms-of-service"]) {
  test(`does not appear on ${path} at any moment it would show on the landing page (4 s to 12 s)`, async ({ page }) => {
    await page.goto(path);
    for (const at of [4000, 6000, 8000, 10_000, 11_999]) {
      await clockAt(page, at);
      await afterFrames(page);
      await expect(popup(page), `${path} at ${at} ms`).toHaveCount(0);
      expect(await bodyActive(page)).toBe(false);
    }
  });
}

test("leaving the page cancels its timers; a restored page shows no stale popup and nothing is left hidden", async ({ page }) => {
  await page.goto("/");
  await clockAt(page, 5000);
  await expect(dialog(page)).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true })));
  await expect(popup(page)).toHaveCount(0);
  expect(await bodyActive(page)).toBe(false);
  expect(await page.locator("body > [aria-hidden]").count()).toBe(0);
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
  // Past every moment it had left (hiding at 12 s, removal at 12.5 s), then two rendered frames.
  await page.clock.runFor(10_000);
  await afterFrames(page);
  await expect(popup(page)).toHaveCount(0);
});
