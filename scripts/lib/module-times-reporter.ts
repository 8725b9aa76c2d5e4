/**
 * A Vitest reporter for `npm test` (scripts/test-all.ts): what each test file cost its worker, written as
 * JSON to the file MODULE_TIMES_ENV names once the run ends. Vitest's JSON report gives a file's time from
 * its first test's start to its last test's end. That leaves out its harness and environment being set
 * up, its imports (collection) and its hooks: a studio, an IdP and a git host started in `beforeAll` and
 * stopped in `afterAll`. In a two-worker run of five studio files, 14–17 s passed between two files on a
 * worker outside those times (2026-11-29).
 */
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/** The environment variable naming the file to write; without it the reporter writes nothing. */
export const MODULE_TIMES_ENV = "SUITE_MODULE_TIMES";

/** One file's whole time on its worker, in seconds, by its absolute path. */
export type ModuleTimes = Record<string, number>;

/** Set-up, imports, hooks and tests of one file, in seconds. */
export function moduleSeconds(module: Pick<TestModule, "diagnostic">): number {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration) / 1000;
}

export default class ModuleTimesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const out = process.env[MODULE_TIMES_ENV];
    if (!out) return;
    const times: ModuleTimes = Object.fromEntries(modules.map((module) => [module.moduleId, moduleSeconds(module)]));
    writeFileSync(out, JSON.stringify(times));
  }
}
