import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { routeFormProvider } from "../../testing/form-provider";
import { afterFrames, hydrated, pausedClock } from "../support/site";

const tooltip = (page: Page) => page.getByRole("tooltip");

test.beforeEach(async ({ page, context }) => {
  await routeFormProvider(context);
  // Paused from before the page runs: Radix's 700 ms and 300 ms move only when a test runs the clock.
  await pausedClock(page);
  await page.goto("/");
});

test("a highlight's tooltip opens after 700 ms of hover, not before", async ({ page }) => {
  await page.locator("#features").scrollIntoViewIfNeeded();
  const trigger = page.getByRole("button", { name: "About Ultra-Low Latency" });
  // The island hydrates on this intent; Radix then owns the trigger (data-state) and replays the hover.
  await trigger.hover();
  await hydrated(page, "Highlights");
  await expect(trigger).toHaveAttribute("data-state", "closed");
  await page.clock.runFor(699);
  // What the timers decided is rendered in the next frames: after two, no tooltip is on its way.
  await afterFrames(page);
  await expect(tooltip(page)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(tooltip(page)).toContainText("under one millisecond");
});

test("another tooltip within the 300 ms skip delay opens at once; after it, the full delay again", async ({ page }) => {
  await page.locator("#features").scrollIntoViewIfNeeded();
  const first = page.getByRole("button", { name: "About Bank-Grade Security" });
  await first.hover();
  await expect(first).toHaveAttribute("data-state", "closed");
  await page.clock.runFor(700);
  await expect(tooltip(page)).toContainText("AES-256");
  const moveAway = () => page.getByRole("heading", { name: "Infrastructure built for regulated institutions" }).hover();

  await moveAway();
  await expect(tooltip(page)).toHaveCount(0);
  await page.clock.runFor(200);
  await page.getByRole("button", { name: "About Dedicated Support" }).hover();
  await page.clock.runFor(1);
  await expect(tooltip(page)).toContainText("around the clock");

  await moveAway();
  await expect(tooltip(page)).toHaveCount(0);
  await page.clock.runFor(400);
  await page.getByRole("button", { name: "About Regulated ATS" }).hover();
  await page.clock.runFor(699);
  await afterFrames(page);
  await expect(tooltip(page)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(tooltip(page)).toContainText("alternative trading system");
});

test("keyboard focus opens the status dot's tooltip and Escape closes it", async ({ page }) => {
  const dot = page.getByRole("button", { name: "Platform status" });
  // Focus wakes the island; once Radix is there it is handed the focus and opens the tooltip.
  await dot.focus();
  await hydrated(page, "StatusDot");
  await expect(dot).toHaveAttribute("data-state", /open/);
  await expect(tooltip(page)).toContainText("does not report the platform's status");
  await expect(dot).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(tooltip(page)).toHaveCount(0);
});

test("before the island hydrates, the tooltip text is already the trigger's description", async ({ page }) => {
  const trigger = page.getByRole("button", { name: "About Regulated ATS" });
  await expect(trigger).toHaveAccessibleDescription(/alternative trading system/);
  await expect(page.locator('astro-island[component-url*="/Highlights."]')).toHaveAttribute("ssr", "");
});

test("a hover before hydration is replayed: the tooltip opens without moving the pointer again", async ({ page }) => {
  const trigger = page.getByRole("button", { name: "About Dedicated Support" });
  await trigger.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
  const { x, y, width, height } = (await trigger.boundingBox())!;
  await page.mouse.move(x + width / 2, y + height / 2);
  await hydrated(page, "Highlights");
  await expect(trigger).toHaveAttribute("data-state", "closed");
  await page.clock.runFor(700);
  await expect(tooltip(page)).toContainText("around the clock");
});
