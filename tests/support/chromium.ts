/**
 * One Chromium for a Node suite's describe block (Vitest): launched before its tests, closed after. A
 * suite that cannot have it names the cause; the launch then fails the block with that sentence (the
 * block is skipped beforehand where the cause is allowed: locally, not under CI). And a page that
 * records the policy's refusals.
 */
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll } from "vitest";
import { chromeArgs, findTestChrome } from "../../lib/chrome.ts";

/** Registers the launch and the close in the current block; the function returned gives the browser. */
export function chromiumForBlock(cause?: string): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (cause) throw new Error(cause);
    browser = await chromium.launch({ executablePath: findTestChrome(), args: chromeArgs });
  });
  afterAll(() => browser?.close());
  return () => browser!;
}

/** Opens `url` in a new page with a listener for CSP violations in place before its first script. */
export async function openWatchingCsp(browser: Browser, url: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(url);
  const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  return { page, response, errors, violations };
}
