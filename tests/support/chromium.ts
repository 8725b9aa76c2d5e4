/**
 * One Chromium for a Node suite's describe block (Vitest): launched before its tests, closed after. A
 * suite that cannot have it names the cause; the launch then fails the block with that sentence (the
 * block is skipped beforehand where the cause is allowed: locally, not under CI).
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
