/**
 * `npm test`: every suite, against a current build. Vitest runs its projects (unit, heavy, records,
 * firefox, webkit; vitest.config.ts), then Playwright runs Chromium (one after the other: side by side
 * on two cores, each took as much longer as the other saved); each prints its own report, and this prints
 * their counts and, last, one line for all of them ("Total: N passed, N failed, N skipped"), which CI
 * reads. Exits non-zero on any failure. A missing browser skips its tests with one line naming the apt
 * command (the engine suites do this themselves); with CI=true they count as failed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { available, isCI, missingLine } from "./lib/system-deps.ts";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const scratch = mkdtempSync(join(tmpdir(), "site-tests-"));
const shell = process.platform === "win32";
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { stdio: "inherit", shell, env: { ...process.env, ...env } }).status ?? 1;

/** The counts a runner's JSON report gives; a runner that failed without reporting a failed test (a crash, a bad config) counts one. */
function counts(report: string, pick: (json: never) => Counts, exitCode: number): Counts {
  let result: Counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    result = pick(JSON.parse(readFileSync(report, "utf8")) as never);
  } catch {
    // No report: counted below.
  }
  if (exitCode !== 0 && result.failed === 0) result.failed = 1;
  return result;
}

function vitest(): Counts {
  const report = join(scratch, "vitest.json");
  const code = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
  type Report = { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  return counts(
    report,
    (json: Report) => ({ passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests }),
    code,
  );
}

function playwright(): Counts & { note?: string } {
  if (!available("chromium")) {
    // Counted by Playwright's own listing, so that a machine without Chromium still reports every test.
    const listed = spawnSync("npx", ["playwright", "test", "--list"], { encoding: "utf8", shell });
    const tests = Number(/Total: (\d+) tests?/.exec(listed.stdout)?.[1] ?? 1);
    const note = missingLine("chromium");
    return isCI() ? { passed: 0, failed: tests, skipped: 0, note } : { passed: 0, failed: 0, skipped: tests, note };
  }
  const report = join(scratch, "playwright.json");
  const code = run("npx", ["playwright", "test"], { PW_JSON_REPORT: report });
  type Report = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  return counts(
    report,
    ({ stats }: Report) => ({ passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped }),
    code,
  );
}

if (run("node", ["scripts/ensure-build.ts"]) !== 0) {
  console.log("build failed; no tests ran");
  console.log("Total: 0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

const results: Array<[string, Counts & { note?: string }]> = [
  ["vitest (unit, heavy, records, firefox, webkit)", vitest()],
  ["playwright (chromium)", playwright()],
];
rmSync(scratch, { recursive: true, force: true });

console.log("");
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const [suite, { passed, failed, skipped, note }] of results) {
  console.log(`${suite}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (note) console.log(`  ${note}`);
  total.passed += passed;
  total.failed += failed;
  total.skipped += skipped;
}
console.log(`Total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
