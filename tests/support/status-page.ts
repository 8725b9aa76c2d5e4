import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "@playwright/test";
import { STATUS_URL } from "../../playwright.config.ts";

/** What the status page answers: one of its indicators (fixture JSON), bad JSON, an HTTP error, no connection, or nothing. */
export type StatusAnswer =
  "none" | "minor" | "major" | "critical" | "maintenance" | "malformed" | "not-json" | "http-500" | "abort" | "hang";

/** Routes the configured status page (nothing leaves the machine); returns the URLs asked for. */
export async function routeStatusPage(target: Page | BrowserContext, answer: StatusAnswer): Promise<string[]> {
  const requested: string[] = [];
  await target.route(`${STATUS_URL}/**`, async (route) => {
    requested.push(route.request().url());
    if (answer === "abort") return route.abort("failed");
    if (answer === "hang") return;
    if (answer === "http-500") return route.fulfill({ status: 500, body: "Internal Server Error", contentType: "text/plain" });
    if (answer === "not-json") return route.fulfill({ body: "<html>maintenance</html>", contentType: "application/json" });
    const body = readFileSync(new URL(`../fixtures/status-page/${answer}.json`, import.meta.url));
    // The real service answers cross-origin reads like this.
    return route.fulfill({ body, contentType: "application/json", headers: { "Access-Control-Allow-Origin": "*" } });
  });
  return requested;
}
