/**
 * `npm test`: every suite, against a current build. Prints each suite's counts and, last, one line
 * for all suites together ("Total: N passed, N failed, N skipped"), which CI reads. Exits non-zero on
 * any failure. A suite whose program (a browser, nginx) is missing is skipped with one line naming the
 * apt command, and its tests count as skipped; with CI=true they count as failed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { available, isCI, missingLine, type SystemDepName } from "./lib/system-deps.ts";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

interface Suite {
  name: string;
  /** The system program it drives, if any. */
  needs?: SystemDepName;
  /** Runs the suite; returns its counts (a crash without a report counts as one failure). */
  run(reportDir: string): Counts;
  /** How many tests it has, without running them (to count a skipped suite). */
  count(): number;
}

const scratch = mkdtempSync(join(tmpdir(), "site-tests-"));
const win = process.platform === "win32";
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { stdio: "inherit", shell: win, env: { ...process.env, ...env } }).status ?? 1;
const capture = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { encoding: "utf8", shell: win, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });

function settle(counts: Counts, exitCode: number): Counts {
  // A runner that failed without reporting a failed test (crash, bad config) still counts as a failure.
  if (exitCode !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

function readJson<T>(file: string, pick: (json: never) => T, fallback: T): T {
  try {
    return pick(JSON.parse(readFileSync(file, "utf8")) as never);
  } catch {
    return fallback;
  }
}

const none: Counts = { passed: 0, failed: 0, skipped: 0 };
type VitestReport = { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
type VitestList = Array<unknown>;
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };

/**
 * A Vitest run: unit, component and server tests, or a browser-engine suite with its own config.
 * `prefix` wraps the command (xvfb-run for a browser that needs a display).
 */
function vitest(name: string, config: string | null, needs?: SystemDepName, prefix: string[] = []): Suite {
  const configArgs = config ? ["--config", config] : [];
  return {
    name,
    needs,
    run(dir) {
      const report = join(dir, `${name}.json`);
      const [command, ...args] = [
        ...prefix,
        "npx",
        "vitest",
        "run",
        ...configArgs,
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${report}`,
      ];
      const code = run(command!, args);
      const counts = readJson<Counts>(
        report,
        (json: VitestReport) => ({
          passed: json.numPassedTests,
          failed: json.numFailedTests,
          skipped: json.numPendingTests + json.numTodoTests,
        }),
        { ...none },
      );
      return settle(counts, code);
    },
    count() {
      // Collected by running the files: Vitest's default static parse misses tests built by a helper, and counts a test.each once.
      const list = join(scratch, `${name}-list.json`);
      capture("npx", ["vitest", "list", ...configArgs, "--staticParse=false", `--json=${list}`]);
      return readJson(list, (json: VitestList) => json.length, 1);
    },
  };
}

/** End-to-end and accessibility tests in Chromium (Playwright). */
const playwright: Suite = {
  name: "chromium",
  needs: "chromium",
  run(dir) {
    const report = join(dir, "playwright.json");
    const code = run("npx", ["playwright", "test"], { PW_JSON_REPORT: report });
    const counts = readJson<Counts>(
      report,
      (json: PlaywrightReport) => ({
        passed: json.stats.expected,
        failed: json.stats.unexpected + json.stats.flaky,
        skipped: json.stats.skipped,
      }),
      { ...none },
    );
    return settle(counts, code);
  },
  count() {
    const listed = capture("npx", ["playwright", "test", "--list"]);
    const total = /Total: (\d+) tests?/.exec(listed.stdout)?.[1];
    return total ? Number(total) : 1;
  },
};

const suites: Suite[] = [
  vitest("unit", null),
  playwright,
  vitest("firefox", "tests/engines/firefox.config.ts", "firefox"),
  vitest("webkit", "tests/engines/webkit.config.ts", "webkit"),
];

const buildStatus = run("node", ["scripts/ensure-build.ts"]);
if (buildStatus !== 0) {
  console.log("build failed; no tests ran");
  console.log("Total: 0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

const results: Array<{ suite: string; note?: string } & Counts> = [];
for (const suite of suites) {
  if (suite.needs && !available(suite.needs)) {
    const tests = suite.count();
    const counts = isCI() ? { passed: 0, failed: tests, skipped: 0 } : { passed: 0, failed: 0, skipped: tests };
    results.push({ suite: suite.name, note: missingLine(suite.needs), ...counts });
    continue;
  }
  results.push({ suite: suite.name, ...suite.run(scratch) });
}

rmSync(scratch, { recursive: true, force: true });
console.log("");
for (const r of results) {
  console.log(`${r.suite}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  if (r.note) console.log(`  ${r.note}`);
}
const total = results.reduce(
  (sum, r) => ({ passed: sum.passed + r.passed, failed: sum.failed + r.failed, skipped: sum.skipped + r.skipped }),
  { ...none },
);
console.log(`Total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
