import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { headlessShell } from "./lib/chrome.ts";
import LongestFirst from "./tests/support/sequencer.ts";
import { ALL_NODE_SUITES, HEAVY, RECORDS_FIXTURE } from "./scripts/lib/test-groups.ts";

/*
 * The heavy suites (scripts/lib/test-groups.ts: those that build the site, start a studio with its people and
 * a browser, or a storage cluster) run two files at a time with the small ones, in one queue ordered
 * longest first from the committed timing list (tests/support/sequencer.ts): the small files fill the
 * gaps the heavy ones leave, and the two workers end together. One at a time left a third of two cores
 * idle while a suite waited on its browser, its servers or a build (68 % busy over 779 s in a fresh-clone
 * CI run, 2026-11-26 16:53 UTC); two at a time, once the suites drove Chromium's headless shell
 * (docs/decisions/0031), took 569 s at 87 % busy. The small files ran first, as a group of their own,
 * until issue 53: the heavy queue then began only when the last small file had ended.
 */

/*
 * The records' captures keep the full browser for the firm (lib/chrome.ts: they keep what a visitor's
 * browser does). In the suites, where the capture's browser is not what is tested, they take the headless
 * shell through CHROME_PATH (set here, so that the global setups' captures and every process a suite
 * starts inherit it): the same engine in about half the time (`records:capture` of the built site took
 * 51 and 57 s against 97 and 100 s with the full browser, beside a full run of the suites, 2026-11-28).
 * A CHROME_PATH of one's own is kept.
 */
const shell = headlessShell();
if (shell && !process.env.CHROME_PATH) process.env.CHROME_PATH = shell;

/**
 * A test's and a hook's ceiling in the heavy and records projects, where a step can wait for a build
 * or a studio start on a loaded machine (two of these files at once, a busy core, or another run beside
 * this one); their browser pages wait as long (testing/studio/browser.ts). A test that names its
 * own ceiling keeps it.
 */
const LOADED_MACHINE_CEILINGS = { testTimeout: 180_000, hookTimeout: 180_000 };

const NODE_SUITE_OPTIONS = {
  // Component tests must not fetch: scripts they add (the form provider's) are never loaded.
  environmentOptions: {
    happyDOM: { settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } },
  },
  // GitHub's workflow parser imports its JSON schema without an import attribute, which Node's
  // loader refuses; through Vite (inlined) it loads as a bundler would load it.
  server: { deps: { inline: ["@actions/workflow-parser"] } },
};

/**
 * Every Vitest suite, as one run with five projects in two groups (`npm test` runs them all;
 * `--project <name>` one), the second after the first:
 * - unit, heavy and records, together, two files at a time, longest first: unit, component and server
 *   tests (no browser; components opt into happy-dom per file); the suites that build copies of the
 *   project, start the team studio with a browser, or a storage cluster; and records, which read one demo
 *   store made once per run (tests/records/fixtures.ts);
 * - firefox and webkit, together: the core scenario in each engine against the built site, one browser
 *   and one page each, in order. A missing browser skips its tests locally and fails them under CI=true
 *   (scenario.ts).
 * `npm test` (scripts/test-all.ts) runs the first as one Vitest run and the engines as another, beside
 * Playwright once the first has ended: the engines never share the machine with the builds.
 */
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    environment: "node",
    // The studios the suites start in their own processes log nothing (studio/logging.ts); a suite that reads the log sets its own sink.
    env: { STUDIO_LOG: "off" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ALL_NODE_SUITES,
          exclude: [...HEAVY, ...RECORDS_FIXTURE],
          // In the heavy suites' queue, so as many at a time (Vitest requires it of one group).
          maxWorkers: 2,
          // The studios some of these start share the run's build worker (decision 0060).
          globalSetup: ["tests/support/build-service.ts"],
          ...NODE_SUITE_OPTIONS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "heavy",
          include: HEAVY,
          maxWorkers: 2,
          ...LOADED_MACHINE_CEILINGS,
          globalSetup: ["tests/support/current-build.ts", "tests/support/build-service.ts"],
          ...NODE_SUITE_OPTIONS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "records",
          // The suites that read the records demo's store, made once per run (tests/records/fixtures.ts).
          include: RECORDS_FIXTURE,
          // In the heavy project's group, so as many at a time (Vitest requires it of one group).
          maxWorkers: 2,
          ...LOADED_MACHINE_CEILINGS,
          globalSetup: ["tests/records/fixtures.ts", "tests/support/build-service.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      ...(["firefox", "webkit"] as const).map((engine) => ({
        extends: true as const,
        test: {
          name: engine,
          include: [`tests/engines/${engine}.test.ts`],
          // Both engines at once, each its own file in order: much of a scenario is the page's own timers
          // in real time (the popup at 4 s and gone by 12.5 s), when a browser waits rather than works.
          maxWorkers: 2,
          sequence: { concurrent: false, groupOrder: 1 },
          hookTimeout: 120_000,
        },
      })),
    ],
  },
});
