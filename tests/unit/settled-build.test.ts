/**
 * A test run's build is made once and never rewritten under the suites reading it: with
 * SITE_BUILD_SETTLED naming it, scripts/ensure-build.ts refuses to rebuild a stale build, in one
 * sentence, and writes nothing (tests/support/current-build.ts, scripts/test-all.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject } from "../support/project-copy.ts";

let project: string;
beforeAll(() => {
  project = copyProject("settled-build-");
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("ensure-build in a test run that has built dist/", () => {
  it("refuses to rebuild a stale dist/ the run named, and writes nothing", () => {
    // The copy has never been built: as stale as a build whose inputs a suite changed.
    const result = spawnSync(process.execPath, ["scripts/ensure-build.ts"], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, SITE_BUILD_SETTLED: join(project, "dist") },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^dist\/ went stale during the test run that built it, while its suites read it: it is not rebuilt under them\./,
    );
    expect(result.stdout).not.toContain("building");
    expect(existsSync(join(project, "dist"))).toBe(false);
  });
});
