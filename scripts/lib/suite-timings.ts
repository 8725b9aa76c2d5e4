/**
 * Where a run of `npm test` spent its time, read from the runners' own JSON reports: every file's and
 * every test's time, each group's wall time and how busy the machine's cores were meanwhile. `npm test`
 * prints the ten slowest files and each group's time before its Total line, keeps the reports in
 * `test-results/suite/`, and with `--update-timings` writes the files' times to `tests/timings.json`,
 * from which Vitest takes its files longest first (tests/support/sequencer.ts), and the behaviour
 * inventory (docs/test-inventory.md): every test by its name, which says the behaviour it asserts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { relative } from "node:path";
import type { ModuleTimes } from "./module-times-reporter.ts";

export interface FileTime {
  /** The file, from the project's root. */
  file: string;
  /** The runner's group (unit, heavy, records, firefox, webkit, playwright). */
  group: string;
  /**
   * In seconds: a Vitest file's whole time on its worker (set-up, imports, hooks and tests;
   * module-times-reporter.ts) where the run wrote it, else from its first test's start to its last test's end.
   */
  seconds: number;
  tests: Array<{ name: string; seconds: number; failure?: string }>;
  /** A failure outside any test (a hook, an import), as its runner reported it. */
  failure?: string;
}

/** The committed timing list: each file's seconds in a full run, from which its files are ordered. */
export const TIMINGS_FILE = "tests/timings.json";

interface VitestReport {
  testResults: Array<{
    name: string;
    startTime: number;
    endTime: number;
    status?: string;
    message?: string;
    assertionResults: Array<{ fullName: string; duration?: number | null; status?: string; failureMessages?: string[] | null }>;
  }>;
}

/**
 * Each file of a Vitest JSON report, its group named by `groupOf`; its seconds the whole time `whole` gives
 * it (module-times-reporter.ts), else its tests' span.
 */
export function vitestFiles(report: string, root: string, groupOf: (file: string) => string, whole: ModuleTimes = {}): FileTime[] {
  const json = JSON.parse(readFileSync(report, "utf8")) as VitestReport;
  return json.testResults.map((result) => {
    const file = relative(root, result.name);
    return {
      file,
      group: groupOf(file),
      seconds: whole[result.name] ?? (result.endTime - result.startTime) / 1000,
      tests: result.assertionResults.map((test) => ({
        name: test.fullName,
        seconds: (test.duration ?? 0) / 1000,
        ...(test.status === "failed" ? { failure: test.failureMessages?.join("\n") || "failed" } : {}),
      })),
      ...(result.status === "failed" && result.message ? { failure: result.message } : {}),
    };
  });
}

interface PlaywrightSuite {
  file?: string;
  title: string;
  suites?: PlaywrightSuite[];
  specs?: Array<{
    title: string;
    tests: Array<{
      projectName: string;
      status?: string;
      results: Array<{ duration: number; startTime: string; error?: { message?: string } }>;
    }>;
  }>;
}

/**
 * Each file of a Playwright JSON report. Its tests run on several workers at once, so a file's time is
 * the sum of its tests' (what it costs the run), not a span.
 */
export function playwrightFiles(report: string): FileTime[] {
  const json = JSON.parse(readFileSync(report, "utf8")) as { suites: PlaywrightSuite[] };
  const byFile = new Map<string, FileTime>();
  const walk = (suite: PlaywrightSuite, file: string, path: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        const key = `${test.projectName}:${file}`;
        const entry = byFile.get(key) ?? { file, group: `playwright (${test.projectName})`, seconds: 0, tests: [] };
        const seconds = test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
        entry.seconds += seconds;
        // "flaky" (passed on a retry) counts as failed in this project, as in the Total line.
        const failed = test.status === "unexpected" || test.status === "flaky";
        const message = test.results.find((result) => result.error)?.error?.message;
        entry.tests.push({ name: [...path, spec.title].join(" > "), seconds, ...(failed ? { failure: message ?? test.status } : {}) });
        byFile.set(key, entry);
      }
    for (const child of suite.suites ?? []) walk(child, file, [...path, child.title]);
  };
  for (const suite of json.suites) walk(suite, `tests/${suite.file ?? suite.title}`, []);
  return [...byFile.values()];
}

/** The machine's processor time so far (all cores), from /proc/stat where there is one. */
export function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait
    return { busy: total - fields[3]! - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}

/** A stretch of the run: its wall time, and how busy the cores were over it. */
export class Stretch {
  private readonly started = performance.now();
  private readonly cpu = cpuTimes();
  seconds = 0;
  busy: number | null = null;
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  end(): this {
    this.seconds = (performance.now() - this.started) / 1000;
    const now = cpuTimes();
    if (this.cpu && now && now.total > this.cpu.total) this.busy = (now.busy - this.cpu.busy) / (now.total - this.cpu.total);
    return this;
  }
}

const secs = (s: number) => `${s >= 100 ? Math.round(s) : s.toFixed(1)} s`;

/** The lines `npm test` prints before its Total: each group's time, then the ten slowest files. */
export function summary(stretches: Stretch[], files: FileTime[], count = 10): string[] {
  const lines = [`Where the time went (${cpus().length} cores):`];
  for (const stretch of stretches)
    lines.push(
      `  ${stretch.name}: ${secs(stretch.seconds)} wall${stretch.busy === null ? "" : `, cores ${Math.round(stretch.busy * 100)} % busy`}`,
    );
  const groups = new Map<string, { seconds: number; files: number }>();
  for (const { group, seconds } of files) {
    const sum = groups.get(group) ?? { seconds: 0, files: 0 };
    groups.set(group, { seconds: sum.seconds + seconds, files: sum.files + 1 });
  }
  for (const [group, { seconds, files: n }] of [...groups].sort((a, b) => b[1].seconds - a[1].seconds))
    lines.push(`  ${group}: ${n} files, ${secs(seconds)} of file time`);
  lines.push(`The ${count} slowest files:`);
  for (const { file, group, seconds, tests } of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, count))
    lines.push(`  ${secs(seconds).padStart(7)}  ${file} (${group}, ${tests.length} tests)`);
  return lines;
}

/**
 * The failed tests, one line each with the first line of its error, printed just before the Total line
 * so that a run whose full output is cut (CI keeps only its end) still names what failed.
 */
export function failures(files: FileTime[], limit = 20): string[] {
  const first = (message: string) =>
    message
      // Colour codes from the runners' messages.
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean)
      ?.slice(0, 240) ?? "";
  const lines: string[] = [];
  for (const { file, group, tests, failure } of files) {
    if (failure) lines.push(`  ${file} (${group}): ${first(failure)}`);
    for (const test of tests)
      if (test.failure) lines.push(`  ${file} (${group}) > ${test.name.replaceAll("\n", " ")}: ${first(test.failure)}`);
  }
  if (lines.length === 0) return [];
  const shown = lines.slice(0, limit);
  if (lines.length > limit) shown.push(`  and ${lines.length - limit} more (test-results/suite/ has the reports)`);
  return [`Failed (${lines.length}):`, ...shown];
}

/** Writes the timing list Vitest orders its files by: each Node file's seconds, rounded, sorted by name. */
export function writeTimings(files: FileTime[], path = TIMINGS_FILE) {
  const list = Object.fromEntries(
    files
      .filter(({ group }) => !group.startsWith("playwright"))
      .map(({ file, seconds }) => [file, Math.round(seconds * 10) / 10] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(path, `${JSON.stringify(list, null, 2)}\n`);
}

/** The behaviour inventory: every file by group, and each of its tests (a behaviour) with its seconds. */
export const INVENTORY_FILE = "docs/test-inventory.md";

export function writeInventory(files: FileTime[], path = INVENTORY_FILE) {
  const byFile = new Map<string, { groups: Set<string>; tests: Map<string, number[]> }>();
  for (const { file, group, tests } of files) {
    const entry = byFile.get(file) ?? { groups: new Set(), tests: new Map() };
    // Playwright runs a file in several projects: one line a test, its projects named with the file.
    entry.groups.add(group);
    for (const { name, seconds } of tests) entry.tests.set(name, [...(entry.tests.get(name) ?? []), seconds]);
    byFile.set(file, entry);
  }
  const count = [...byFile.values()].reduce((sum, { tests }) => sum + tests.size, 0);
  const lines = [
    "# The behaviour inventory",
    "",
    "Every behaviour the suites assert, by the test that asserts it: each test's name says its behaviour.",
    "Written by `npm test -- --update-timings` from the runners' reports (scripts/lib/suite-timings.ts), with",
    "each test's seconds in that run (a test run in several projects or engines: each run's). Before a",
    "test is removed or two are merged, find here what else asserts its behaviour, and name both in the",
    'commit\'s body (docs/testing.md, "What a test may cost").',
    "",
    `${count} tests in ${byFile.size} files.`,
  ];
  for (const [file, { groups, tests }] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push("", `## ${file} (${[...groups].sort().join(", ")})`, "");
    for (const [name, seconds] of tests) lines.push(`- ${name.replaceAll("\n", " ")} (${seconds.map((s) => secs(s)).join(", ")})`);
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
}
