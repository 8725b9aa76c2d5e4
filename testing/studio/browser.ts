/**
 * Chromium for the suites that drive the studio (tests/studio, tests/records): every page it opens
 * waits up to STUDIO_WAIT_MS for an action or a state, instead of Playwright's 30 s. Decap's admin is
 * 5 MB of script, and a publish or a status change waits its turn behind a build: on a loaded machine
 * (a fresh-clone CI run beside a benchmark) 30 s ran out while the state was still coming (Decap's
 * "Writing in" after sign-in). A wait still ends as soon as its state arrives. A test must not wait
 * for something absent by letting a wait time out (count it instead): that costs the whole ceiling.
 */
import { chromium, type Browser } from "@playwright/test";
import { chromeArgs, findTestChrome } from "../../lib/chrome.ts";

export const STUDIO_WAIT_MS = 120_000;

export async function studioChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: findTestChrome(), args: chromeArgs });
  const newContext = browser.newContext.bind(browser);
  // Every context gets the ceiling; browser.newPage() opens its page in a context of its own through this.
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STUDIO_WAIT_MS);
    return context;
  };
  return browser;
}
