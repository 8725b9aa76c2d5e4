/**
 * `npm test`: every suite, against a current build. Vitest runs its Node projects first (unit, then heavy
 * and records; vitest.config.ts), on their own: they keep both cores busy. Then Playwright's Chromium
 * suites and Vitest's Firefox and WebKit suites run side by side: both spend much of their time waiting
 * on the pages' own clocks, smooth scrolls and timers in real time (Playwright alone left two cores about
 * 20 % busy for 35–40 s at a time). Each prints its own report (the engines' after Playwright's, so that the
 * two do not interleave), and this prints their counts and, last, one line for all of them ("Total: N
 * passed, N failed, N skipped"), which CI reads. Before that line, where the time went: each group's
 * wall time and how busy the cores were, the ten slowest files and every failed test with its error's first line (scripts/lib/suite-timings.ts); the
 * runners' JSON reports, with every test's time, are kept in test-results/suite/. `npm test --
 * --update-timings` also writes the files' times to tests/timings.json, the order Vitest runs them in, and the behaviour inventory (docs/test-inventory.md).
 * Exits non-zero on any failure. A missing browser skips its tests with one line naming the apt command
 * (the engine suites do this themselves); with CI=true they count as failed.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { available, isCI, missingLine } from "./lib/system-deps.ts";
import {
  failures,
  INVENTORY_FILE,
  playwrightFiles,
  Stretch,
  summary,
  TIMINGS_FILE,
  vitestFiles,
  writeInventory,
  writeTimings,
  type FileTime,
} from "./lib/suite-timings.ts";
import { outDir, SETTLED_BUILD } from "./build-inputs.ts";
import { vitestGroup } from "./lib/test-groups.ts";
import { MODULE_TIMES_ENV, type ModuleTimes } from "./lib/module-times-reporter.ts";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const scratch = mkdtempSync(join(tmpdir(), "site-tests-"));
const shell = process.platform === "win32";
/**
 * Runs a command; resolves to its exit status (1 if it could not start). Its output goes to this terminal
 * as it comes, or, with `keep`, is kept and returned whole (for a run beside another that prints as it goes).
 */
function run(
  command: string,
  args: string[],
  { env = {}, keep = false }: { env?: Record<string, string>; keep?: boolean } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const colour = keep ? { FORCE_COLOR: process.stdout.isTTY ? "1" : "0" } : {};
    const child = spawn(command, args, {
      stdio: keep ? ["ignore", "pipe", "pipe"] : "inherit",
      shell,
      env: { ...process.env, ...colour, ...env },
    });
    const chunks: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", (error) => chunks.push(Buffer.from(`${String(error)}\n`)));
    child.on("close", (code) => done({ code: code ?? 1, output: Buffer.concat(chunks).toString("utf8") }));
  });
}

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

type VitestReport = { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
const vitestCounts = (json: VitestReport) => ({
  passed: json.numPassedTests,
  failed: json.numFailedTests,
  skipped: json.numPendingTests + json.numTodoTests,
});
const vitestArgs = (report: string, projects: string[]) => [
  "vitest",
  "run",
  ...projects.flatMap((name) => ["--project", name]),
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  // Each file's whole time on its worker, hooks and imports included (its own file, named by MODULE_TIMES_ENV).
  "--reporter=./scripts/lib/module-times-reporter.ts",
];
/** Where a Vitest run's whole file times go: beside its JSON report. */
const wholeTimes = (report: string) => report.replace(/\.json$/, ".modules.json");
/** The whole file times a run wrote, or none. */
function readWhole(report: string): ModuleTimes {
  try {
    return JSON.parse(readFileSync(wholeTimes(report), "utf8")) as ModuleTimes;
  } catch {
    return {};
  }
}

/** The Node projects: unit, then heavy and records. */
async function vitestNode(): Promise<Counts> {
  const report = join(scratch, "vitest-node.json");
  const { code } = await run("npx", vitestArgs(report, ["unit", "heavy", "records"]), { env: { [MODULE_TIMES_ENV]: wholeTimes(report) } });
  return counts(report, vitestCounts, code);
}

/** Firefox and WebKit (their output kept until they end). */
async function vitestEngines(): Promise<Counts & { output: string }> {
  const report = join(scratch, "vitest-engines.json");
  const { code, output } = await run("npx", vitestArgs(report, ["firefox", "webkit"]), {
    keep: true,
    env: { [MODULE_TIMES_ENV]: wholeTimes(report) },
  });
  return { ...counts(report, vitestCounts, code), output };
}

async function playwright(): Promise<Counts & { note?: string }> {
  if (!available("chromium")) {
    // Counted by Playwright's own listing, so that a machine without Chromium still reports every test.
    const listed = spawnSync("npx", ["playwright", "test", "--list"], { encoding: "utf8", shell });
    const tests = Number(/Total: (\d+) tests?/.exec(listed.stdout)?.[1] ?? 1);
    const note = missingLine("chromium");
    return isCI() ? { passed: 0, failed: tests, skipped: 0, note } : { passed: 0, failed: 0, skipped: tests, note };
  }
  const report = join(scratch, "playwright.json");
  const { code } = await run("npx", ["playwright", "test"], { env: { PW_JSON_REPORT: report } });
  type Report = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  return counts(
    report,
    ({ stats }: Report) => ({ passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped }),
    code,
  );
}

if ((await run("node", ["scripts/ensure-build.ts"])).code !== 0) {
  console.log("build failed; no tests ran");
  console.log("Total: 0 passed, 1 failed, 0 skipped");
  process.exit(1);
}
// Made once for the whole run: every suite and runner below inherits this, and no ensure-build of theirs rewrites it.
process.env[SETTLED_BUILD] = outDir;

const stretches = [new Stretch("vitest (unit, heavy, records)")];
const node = await vitestNode();
stretches[0]!.end();
stretches.push(new Stretch("playwright beside vitest (firefox, webkit)"));
const [engines, chromium] = await Promise.all([vitestEngines(), playwright()]);
stretches[1]!.end();
console.log("\n::: vitest (firefox, webkit), run beside Playwright\n");
process.stdout.write(engines.output);
const results: Array<[string, Counts & { note?: string }]> = [
  ["vitest (unit, heavy, records)", node],
  ["vitest (firefox, webkit)", engines],
  ["playwright (chromium)", chromium],
];

// Where the time went, from the runners' own reports (a report missing after a crash is left out).
const files: FileTime[] = [];
const kept = join("test-results", "suite");
mkdirSync(kept, { recursive: true });
for (const [report, read] of [
  ["vitest-node.json", (path: string) => vitestFiles(path, process.cwd(), vitestGroup, readWhole(path))],
  ["vitest-engines.json", (path: string) => vitestFiles(path, process.cwd(), vitestGroup, readWhole(path))],
  ["playwright.json", playwrightFiles],
] as const) {
  const path = join(scratch, report);
  if (!existsSync(path)) continue;
  copyFileSync(path, join(kept, report));
  if (existsSync(wholeTimes(path))) copyFileSync(wholeTimes(path), join(kept, wholeTimes(report)));
  try {
    files.push(...read(path));
  } catch (error) {
    console.log(`${report}: could not be read (${(error as Error).message})`);
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log("");
for (const line of summary(stretches, files)) console.log(line);
if (process.argv.includes("--update-timings")) {
  writeTimings(files);
  writeInventory(files);
  console.log(`Wrote ${TIMINGS_FILE} (Vitest runs its files longest first from it) and ${INVENTORY_FILE}, the behaviour inventory.`);
}

console.log("");
for (const line of failures(files)) console.log(line);
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
