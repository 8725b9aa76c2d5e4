/** The studio on a throw-away clone of this project, and Chromium to drive its admin. */
import { chromium, type Browser } from "@playwright/test";
import { chromeArgs, findChrome } from "../../lib/chrome.ts";
import { studioOnThrowawayClone, type StudioTrial } from "../../studio/trial.ts";

export interface StudioRun extends StudioTrial {
  browser: Browser;
}

export async function startStudioOnClone(): Promise<StudioRun> {
  const trial = await studioOnThrowawayClone();
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  return {
    ...trial,
    browser,
    async stop() {
      await browser.close();
      await trial.stop();
    },
  };
}
