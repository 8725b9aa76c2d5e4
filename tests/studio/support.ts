/** The studio on a throw-away clone of this project, and Chromium to drive its admin. */
import { type Browser } from "@playwright/test";
import { studioChromium } from "../../testing/studio/browser.ts";
import { studioOnThrowawayClone, type StudioTrial } from "../../testing/studio/trial.ts";

export interface StudioRun extends StudioTrial {
  browser: Browser;
}

export async function startStudioOnClone(): Promise<StudioRun> {
  const trial = await studioOnThrowawayClone();
  const browser = await studioChromium();
  return {
    ...trial,
    browser,
    async stop() {
      await browser.close();
      await trial.stop();
    },
  };
}
