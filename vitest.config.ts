import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The records suites that share one demo store per run (its global setup captures the site twice). */
const RECORDS_FIXTURE = ["tests/records/studio.test.ts", "tests/records/export.test.ts", "tests/records/records-a11y.test.ts"];

/**
 * Every Vitest suite, as one run with four projects (`npm test` runs them all; `--project <name>` one):
 * - unit: unit, component and server tests, and real builds of a copy of the project (no browser;
 *   components opt into happy-dom per file);
 * - records: the records suites that read one demo store made once per run (tests/records/fixtures.ts);
 * - firefox, webkit: the core scenario in each engine against the built site, one browser and one page,
 *   in order. A missing browser skips its tests locally and fails them under CI=true (scenario.ts).
 * The groups run one after another, so the engines never share the machine with the builds.
 */
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "tests/unit/**/*.test.{ts,tsx}",
            "tests/integration/**/*.test.ts",
            "tests/server/**/*.test.ts",
            "tests/studio/**/*.test.ts",
            "tests/records/**/*.test.ts",
          ],
          exclude: RECORDS_FIXTURE,
          // Component tests must not fetch: scripts they add (the form provider's) are never loaded.
          environmentOptions: {
            happyDOM: { settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } },
          },
          sequence: { groupOrder: 0 },
          // GitHub's workflow parser imports its JSON schema without an import attribute, which Node's
          // loader refuses; through Vite (inlined) it loads as a bundler would load it.
          server: { deps: { inline: ["@actions/workflow-parser"] } },
        },
      },
      {
        extends: true,
        test: {
          name: "records",
          // The suites that read the records demo's store, made once per run (tests/records/fixtures.ts).
          include: RECORDS_FIXTURE,
          globalSetup: ["tests/records/fixtures.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      ...(["firefox", "webkit"] as const).map((engine, i) => ({
        extends: true as const,
        test: {
          name: engine,
          include: [`tests/engines/${engine}.test.ts`],
          sequence: { concurrent: false, groupOrder: i + 1 },
          hookTimeout: 120_000,
        },
      })),
    ],
  },
});
