import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { configuredBaseURL, STATUS_URL } from "../../playwright.config";
import { routeFormProvider } from "../../testing/form-provider";
import { routeStatusPage, type StatusAnswer } from "../support/status-page";
import { STATUS_CHECK_AT_MS, TOOLTIP_OPEN_DELAY_MS } from "../../src/shared/constants.ts";
import { clockAt, closePopupWhenShown, hydrated, pausedClock, recordCspViolations } from "../support/site";

const dot = (page: Page) => page.locator("[data-status-tone]");
const description = (page: Page) => page.locator("#status-dot-description");

test.describe("without a status page configured (the default build)", () => {
  test("the dot keeps its place and look, and its text makes no statement about the platform's health", async ({ page }) => {
    await routeFormProvider(page);
    // Paused from before the page runs: the popup (a modal at 4 s, which hides the page from the
    // accessibility tree) cannot come up mid-test on a slow machine, and the tooltip's delay runs when told.
    await pausedClock(page);
    await page.goto("/");
    const trigger = page.getByRole("button", { name: "Platform status" });
    await expect(trigger).toBeVisible();
    await expect(dot(page)).toHaveAttribute("data-status-tone", "neutral");
    const text = (await description(page).textContent()) ?? "";
    expect(text).toBe("This site does not report the platform's status.");
    expect(text).not.toMatch(/operational|up|available|healthy|normal/i);
    expect(await page.content()).not.toMatch(/all systems operational/i);
    // It asks nothing of anyone.
    await trigger.hover();
    await hydrated(page, "StatusDot");
    // Radix, loaded on that intent, owns the trigger (data-state) and has replayed the hover: its delay runs now.
    await expect(trigger).toHaveAttribute("data-state", "closed");
    await page.clock.runFor(TOOLTIP_OPEN_DELAY_MS);
    await expect(page.getByRole("tooltip")).toContainText("does not report");
  });
});

test.describe("with PUBLIC_STATUS_URL set (a build whose CSP allows that page)", () => {
  test.use({ baseURL: configuredBaseURL });

  const open = async (page: Page, answer: StatusAnswer) => {
    await routeFormProvider(page);
    const requested = await routeStatusPage(page, answer);
    const violations = await recordCspViolations(page);
    await closePopupWhenShown(page);
    await page.goto("/");
    return { requested, violations };
  };

  for (const [answer, tone, words] of [
    ["none", "none", "All Systems Operational"],
    ["minor", "minor", "Minor Service Outage"],
    ["major", "major", "Partial System Outage"],
    ["critical", "critical", "Major System Outage"],
    ["maintenance", "maintenance", "Service Under Maintenance"],
  ] as const) {
    test(`shows the page's indicator "${answer}" and its description, and links to it`, async ({ page }) => {
      const { requested, violations } = await open(page, answer);
      await expect(dot(page)).toHaveAttribute("data-status-tone", tone);
      await expect(description(page)).toHaveText(`Platform status (status.example.org): ${words}`);
      const link = page.getByRole("link", { name: "Platform status (opens in a new tab)" });
      await expect(link).toHaveAttribute("href", STATUS_URL);
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
      expect(requested).toEqual([`${STATUS_URL}/api/v2/status.json`]);
      expect(violations).toEqual([]);
    });
  }

  for (const answer of ["malformed", "not-json", "http-500", "abort"] as const) {
    test(`says the status is unavailable when the page answers ${answer}`, async ({ page }) => {
      const { violations } = await open(page, answer);
      await expect(dot(page)).toHaveAttribute("data-status-tone", "unknown");
      await expect(description(page)).toHaveText("Platform status unavailable; see status.example.org");
      expect(violations).toEqual([]);
    });
  }

  test("says the status is unavailable when the page never answers", async ({ page }) => {
    // Paused before the page runs: the dot's 8 s limit moves only when the test runs the clock.
    await pausedClock(page);
    const { requested } = await open(page, "hang");
    // The dot wakes at 1 s, at the next idle moment (within 300 ms), and asks; its limit starts with the question.
    await clockAt(page, STATUS_CHECK_AT_MS + 300);
    await hydrated(page, "StatusDot");
    await expect.poll(() => requested).toEqual([`${STATUS_URL}/api/v2/status.json`]);
    await expect(description(page)).toHaveText("Platform status: see status.example.org");
    await page.clock.runFor(8000);
    await expect(description(page)).toHaveText("Platform status unavailable; see status.example.org");
  });

  test("before the answer, and without JavaScript, the dot is a working link to the status page", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: configuredBaseURL });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Platform status (opens in a new tab)" })).toHaveAttribute("href", STATUS_URL);
    await expect(description(page)).toHaveText("Platform status: see status.example.org");
    await context.close();
  });
});
