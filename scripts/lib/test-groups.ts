/**
 * Which Vitest project each Node suite belongs to (vitest.config.ts), named once so that `npm test`'s
 * timing summary (scripts/lib/suite-timings.ts) names the same groups.
 */
import { matchesGlob } from "node:path";

/** The records suites that share one demo store per run (its global setup captures the site twice). */
export const RECORDS_FIXTURE = [
  "tests/records/studio.test.ts",
  "tests/records/export.test.ts",
  "tests/records/wacz.test.ts",
  "tests/records/records-a11y.test.ts",
];

/** Every suite that runs in Node (no browser of its own project). */
export const ALL_NODE_SUITES = [
  "tests/unit/**/*.test.{ts,tsx}",
  "tests/integration/**/*.test.ts",
  "tests/server/**/*.test.ts",
  "tests/studio/**/*.test.ts",
  "tests/records/**/*.test.ts",
];

/**
 * The suites that build the site, start a studio with its people and a browser, or a storage cluster.
 * They get the ceilings of a loaded machine and the run's current build (vitest.config.ts).
 */
export const HEAVY = [
  "tests/integration/**/*.test.ts",
  "tests/server/{observatory,hosts}.test.ts",
  "tests/records/{capture,capture-origin}.test.ts",
  "tests/studio/{team,team-schedule,team-refusals,seams,team-restart,team-host,team-faults,team-crash,editor,studio,disclosures,conflict,pages-a11y,editor-a11y,review-firefox,demo,content-rules,health,builds-disk,builds-reuse,deploy}.test.ts",
  "tests/records/capture-s3.test.ts",
];

/** The Vitest project a file (from the project's root) runs in. */
export function vitestGroup(file: string): string {
  const any = (globs: string[]) => globs.some((glob) => matchesGlob(file, glob));
  if (file.startsWith("tests/engines/")) return file.includes("webkit") ? "webkit" : "firefox";
  if (RECORDS_FIXTURE.includes(file)) return "records";
  if (any(HEAVY)) return "heavy";
  return "unit";
}
