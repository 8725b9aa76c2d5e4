import { defineConfig, devices } from "@playwright/test";
import { chromeArgs, findChrome } from "./tests/support/chrome.ts";
import { VISUAL_TOLERANCE } from "./tests/visual/tolerance.ts";

const port = Number(process.env.E2E_PORT ?? 4410);
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * A second build whose configuration names the optional services: an analytics script
 * (tests/e2e/analytics.spec.ts) and a status page (tests/e2e/status.spec.ts).
 */
export const configuredBaseURL = `http://127.0.0.1:${port + 1}`;
export const ANALYTICS_SCRIPT_URL = "https://analytics.example.org/script.js";
export const STATUS_URL = "https://status.example.org";

/**
 * End-to-end, accessibility and visual regression tests: real Chromium against dist/ served by our own
 * server (server/). The "visual" project compares screenshots with committed baselines (tests/visual/).
 */
export default defineConfig({
  testDir: "tests",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.PW_JSON_REPORT ? [["list"], ["json", { outputFile: process.env.PW_JSON_REPORT }]] : "list",
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    launchOptions: { executablePath: findChrome(), args: chromeArgs },
    trace: "off",
  },
  projects: [
    { name: "chromium", testMatch: ["e2e/**/*.spec.ts", "a11y/**/*.spec.ts"] },
    {
      name: "visual",
      testMatch: ["visual/**/*.spec.ts"],
      // One baseline per shot for every machine: the baselines are Debian Chromium's (tests/visual/environment.ts).
      snapshotPathTemplate: "{testDir}/visual/baselines/{arg}{ext}",
      use: { deviceScaleFactor: 1, reducedMotion: "reduce" },
      // A whole-page shot is taken until two in a row agree; on a busy 2-core machine that outlasts 5 s.
      expect: { timeout: 20_000, toHaveScreenshot: VISUAL_TOLERANCE },
    },
  ],
  webServer: [
    {
      command: "node server/index.ts",
      env: { PORT: String(port), HOST: "127.0.0.1" },
      url: `${baseURL}/`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      timeout: 20_000,
    },
    {
      // Built on demand (and cached by its fingerprint) into dist-configured/.
      command: "node scripts/ensure-build.ts && node server/index.ts",
      env: {
        PORT: String(port + 1),
        HOST: "127.0.0.1",
        SITE_OUT_DIR: "dist-configured",
        // Another configuration has other text (a status page's link), which nobody has approved: it is
        // built as a preview (drafts marked), as a deployment's text would be before its principal approves it.
        APPROVAL_PREVIEW: "1",
        PUBLIC_ANALYTICS_SCRIPT_URL: ANALYTICS_SCRIPT_URL,
        PUBLIC_STATUS_URL: STATUS_URL,
      },
      url: `${configuredBaseURL}/`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      timeout: 180_000,
    },
  ],
});
