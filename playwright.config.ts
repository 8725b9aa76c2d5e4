import { defineConfig, devices } from "@playwright/test";
import { chromeArgs, findTestChrome } from "./lib/chrome.ts";
import { suiteFontconfig } from "./tests/visual/fontconfig.ts";
import { VISUAL_TOLERANCE } from "./tests/visual/tolerance.ts";

/**
 * The servers are started by tests/support/servers.ts (global setup) on ports the OS picks; workers
 * are started after it and read the origins from the environment.
 */
export const baseURL = process.env.E2E_BASE_URL;
/** The build with the optional services configured (tests/support/configured-build.ts). */
export const configuredBaseURL = process.env.E2E_CONFIGURED_BASE_URL;
export { ANALYTICS_SCRIPT_URL, STATUS_URL } from "./tests/support/configured-build.ts";

/**
 * End-to-end, accessibility and visual regression tests: real Chromium against dist/ served by our own
 * server (server/). The "visual" project compares screenshots with committed baselines (tests/visual/).
 */
/** process.env without its unset names, as a child process's environment. */
function definedEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export default defineConfig({
  testDir: "tests",
  // Its own folder, which it empties at every start: `npm test` keeps the runners' reports beside it in
  // test-results/suite/, and a Playwright run of one file afterwards emptied the whole of test-results/.
  outputDir: "test-results/playwright",
  fullyParallel: true,
  // Three under CI on two cores: much of the suite waits in real time (Tab walks that wait for smooth
  // scrolls, zoomed pages settling), when two workers left the cores 20 % busy for half a minute at a
  // time (3.2 min for the suite beside the engines, against 4.1 min with two; 2026-11-26).
  workers: process.env.CI ? 3 : undefined,
  retries: 0,
  timeout: 30_000,
  // A wait ends when the state it waits for arrives; its ceiling only matters on a loaded machine (a
  // page throttled to a slow phone's CPU, beside other suites), where 5 s was not enough to be sure.
  expect: { timeout: 15_000 },
  reporter: process.env.PW_JSON_REPORT ? [["list"], ["json", { outputFile: process.env.PW_JSON_REPORT }]] : "list",
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    launchOptions: { executablePath: findTestChrome(), args: chromeArgs },
    trace: "off",
  },
  projects: [
    { name: "chromium", testMatch: ["e2e/**/*.spec.ts", "a11y/**/*.spec.ts"] },
    {
      name: "visual",
      testMatch: ["visual/**/*.spec.ts"],
      // One baseline per shot for every machine: Debian's Chromium headless shell's (tests/visual/environment.ts).
      snapshotPathTemplate: "{testDir}/visual/baselines/{arg}{ext}",
      // Its own font world (tests/visual/fontconfig.ts): only fonts-dejavu-core, whatever else the machine has.
      use: {
        deviceScaleFactor: 1,
        reducedMotion: "reduce",
        launchOptions: { executablePath: findTestChrome(), args: chromeArgs, env: { ...definedEnv(), FONTCONFIG_FILE: suiteFontconfig() } },
      },
      // A whole-page shot is taken until two in a row agree; on a busy 2-core machine that outlasts 5 s.
      expect: { timeout: 20_000, toHaveScreenshot: VISUAL_TOLERANCE },
    },
  ],
  globalSetup: "./tests/support/servers.ts",
});
