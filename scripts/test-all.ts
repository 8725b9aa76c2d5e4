/**
 * `npm test`: every suite, against a current build. Prints each suite's counts and, last, one line
 * for all suites together ("Total: N passed, N failed"), which CI reads. Exits non-zero on any failure.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const results: Array<{ suite: string } & Counts> = [];
const scratch = mkdtempSync(join(tmpdir(), "site-tests-"));
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

function record(suite: string, counts: Counts, exitCode: number) {
  // A runner that failed without reporting a failed test (crash, bad config) still counts as a failure.
  if (exitCode !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ suite, ...counts });
}

const buildStatus = run("node", ["scripts/ensure-build.ts"]);
if (buildStatus !== 0) {
  console.log("build failed; no tests ran");
  console.log("Total: 0 passed, 1 failed");
  process.exit(1);
}

// Unit, component and server tests (Vitest).
{
  const report = join(scratch, "vitest.json");
  const code = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
  let counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    counts = { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests };
  } catch {
    /* no report: counted as a failure below */
  }
  record("unit", counts, code);
}

// End-to-end and accessibility tests in Chromium (Playwright).
{
  const report = join(scratch, "playwright.json");
  const code = run("npx", ["playwright", "test"], { PW_JSON_REPORT: report });
  let counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const stats = JSON.parse(readFileSync(report, "utf8")).stats;
    counts = { passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped };
  } catch {
    /* no report */
  }
  record("browser", counts, code);
}

rmSync(scratch, { recursive: true, force: true });
console.log("");
for (const r of results) console.log(`${r.suite}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
const total = results.reduce(
  (sum, r) => ({ passed: sum.passed + r.passed, failed: sum.failed + r.failed, skipped: sum.skipped + r.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log(`Total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
