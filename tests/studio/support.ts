/** The studio on a throw-away clone of this project, and Chromium to drive its admin. */
import { type Browser, type Page } from "@playwright/test";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
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

/**
 * For a whole file: the studio on a clone, started once, and a new browser page at desktop width for
 * each test (an entry left with unsaved changes would hold the editor for the next one). The file keeps
 * its own variables; these hooks set them.
 */
export function studioWithPagePerTest(set: { run: (run: StudioRun) => void; page: (page: Page) => void }) {
  let run: StudioRun | undefined;
  beforeAll(async () => {
    run = await startStudioOnClone();
    set.run(run);
  });
  beforeEach(async () => {
    set.page(await run!.browser.newPage({ viewport: { width: 1440, height: 900 } }));
  });
  // Every page a test opened, the one given here or one it opened itself.
  afterEach(() => Promise.all(run!.browser.contexts().map((context) => context.close())));
  afterAll(() => run?.stop());
}
