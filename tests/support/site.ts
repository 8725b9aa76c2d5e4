import { expect, type Page } from "@playwright/test";

export const LEGAL_PAGES = [
  { path: "/terms-of-service", title: "Terms of Service" },
  { path: "/privacy-policy", title: "Privacy Policy" },
  { path: "/risk-disclosures", title: "Risk Disclosures" },
  { path: "/cookie-policy", title: "Cookie Policy" },
] as const;

export const ISLANDS = ["SiteHeader", "ConsentBanner", "UnderDevelopmentPopup", "ContactFormEmbed", "Highlights"] as const;

/** Waits until an island has hydrated (Astro removes its `ssr` attribute then). */
export async function hydrated(page: Page, island: (typeof ISLANDS)[number]) {
  await expect(page.locator(`astro-island[component-url*="/${island}."]:not([ssr])`).first()).toBeAttached({ timeout: 10_000 });
}

/** With page.clock installed before navigation: pauses the clock and moves it so performance.now() is `ms`. */
export async function clockAt(page: Page, ms: number) {
  // Time still flows until paused, so pause a little ahead of "now" (never in the past).
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 200);
  const elapsed = await page.evaluate(() => performance.now());
  if (elapsed > ms) throw new Error(`the page is already at ${elapsed} ms, past ${ms} ms`);
  if (ms > elapsed) await page.clock.runFor(ms - elapsed);
  expect(Math.round(await page.evaluate(() => performance.now()))).toBe(ms);
}

/** Collects uncaught errors and console errors, to assert a scenario left the page working. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** Every request that leaves our own origin. */
export function trackThirdParty(page: Page, ownOrigin: string): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(ownOrigin) && !url.startsWith("data:")) urls.push(url);
  });
  return urls;
}
