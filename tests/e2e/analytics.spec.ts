import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { ANALYTICS_SCRIPT_URL, configuredBaseURL } from "../../playwright.config";
import { routeStatusPage } from "../support/status-page";
import { routeFormProvider } from "../../testing/form-provider";
import { afterFrames, closePopupWhenShown, recordCspViolations, trackErrors } from "../support/site";

/**
 * Against a build whose configuration names an analytics script: it loads only after Accept All,
 * never after Reject All or under Global Privacy Control, and the CSP (computed from that build's
 * configuration) lets it run.
 */
test.use({ baseURL: configuredBaseURL });

declare global {
  interface Window {
    analyticsRan?: boolean;
  }
}

async function routeAnalytics(page: Page) {
  const requested: string[] = [];
  await page.context().route(`${new URL(ANALYTICS_SCRIPT_URL).origin}/**`, (route) => {
    requested.push(route.request().url());
    return route.fulfill({ body: "window.analyticsRan = true;", contentType: "text/javascript" });
  });
  return requested;
}

test.beforeEach(async ({ context, page }) => {
  await routeFormProvider(context);
  await routeStatusPage(context, "none");
  await closePopupWhenShown(page);
});

test("nothing loads before a choice; Accept All loads and runs the script, and it loads again on return", async ({ page }) => {
  const requested = await routeAnalytics(page);
  const violations = await recordCspViolations(page);
  const errors = trackErrors(page);
  await page.goto("/");
  await page.waitForLoadState("load");
  // The head script decides at the load event, synchronously: no script element means no request.
  await afterFrames(page);
  await expect(page.locator("script[data-analytics]")).toHaveCount(0);
  expect(requested).toEqual([]);
  await page.getByRole("button", { name: "Accept All" }).click();
  await expect.poll(() => page.evaluate(() => window.analyticsRan === true)).toBe(true);
  expect(requested).toEqual([ANALYTICS_SCRIPT_URL]);
  await page.reload();
  await page.waitForLoadState("load");
  await expect.poll(() => page.evaluate(() => window.analyticsRan === true)).toBe(true);
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});

test("Reject All never loads it", async ({ page }) => {
  const requested = await routeAnalytics(page);
  await page.goto("/");
  await page.waitForLoadState("load");
  await page.getByRole("button", { name: "Reject All" }).click();
  await page.reload();
  await page.waitForLoadState("load");
  await afterFrames(page);
  await expect(page.locator("script[data-analytics]")).toHaveCount(0);
  expect(requested).toEqual([]);
});

test("Global Privacy Control keeps it out even after Accept All", async ({ page }) => {
  const requested = await routeAnalytics(page);
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }));
  await page.goto("/");
  await page.waitForLoadState("load");
  await page.getByRole("button", { name: "Accept All" }).click();
  // The click's handler decides at once: no script element means no request.
  await expect(page.locator("html")).toHaveAttribute("data-consent", "accepted");
  await afterFrames(page);
  await expect(page.locator("script[data-analytics]")).toHaveCount(0);
  expect(requested).toEqual([]);
});
