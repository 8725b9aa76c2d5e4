/**
 * `npm run test:changed [-- <git ref>]`: the fast answer for a change, in minutes: what the change can
 * break, not every suite. Against the work tree's changes (or those since `<ref>`, e.g. origin/main):
 * - the build, when anything it is made from changed (the approval gate and the content schemas: a
 *   changed sentence that is not approved, or a broken front matter, fails here, naming the file);
 * - Vitest's tests that import a changed module (`vitest run --changed`);
 * - Playwright's spec files that changed or import a changed module (`playwright test --only-changed`);
 * - when the site itself changed (src/, the content, approvals), the Chromium specs that read every
 *   page: its routes, legal pages and disclosures, and axe on every page.
 * Ends with one line for all of them, as `npm test` does. `npm test` remains the whole answer.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ref = process.argv[2];
const shell = process.platform === "win32";
const git = (...args: string[]) => spawnSync("git", args, { encoding: "utf8" }).stdout.trim();
const changed = [
  ...new Set([
    ...git("diff", "--name-only", ref ?? "HEAD").split("\n"),
    ...(ref ? [] : git("ls-files", "--others", "--exclude-standard").split("\n")),
  ]),
].filter(Boolean);
if (changed.length === 0) {
  console.log(`test:changed: nothing changed${ref ? ` since ${ref}` : " in the work tree"}; npm test runs everything.`);
  process.exit(0);
}
console.log(`test:changed: ${changed.length} changed file${changed.length === 1 ? "" : "s"}${ref ? ` since ${ref}` : ""}`);

const scratch = mkdtempSync(join(tmpdir(), "test-changed-"));
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { stdio: "inherit", shell, env: { ...process.env, ...env } }).status ?? 1;
const totals = { passed: 0, failed: 0, skipped: 0 };
const count = (report: string, code: number, pick: (json: never) => typeof totals) => {
  let found = { passed: 0, failed: 0, skipped: 0 };
  try {
    found = pick(JSON.parse(readFileSync(report, "utf8")) as never);
  } catch {
    // No report: a crash or a bad configuration, counted below.
  }
  if (code !== 0 && found.failed === 0) found.failed = 1;
  totals.passed += found.passed;
  totals.failed += found.failed;
  totals.skipped += found.skipped;
};

const siteChanged = changed.some(
  (file) => /^(src|approvals|integrations|public)\//.test(file) || /^astro(\.preview)?\.config\.mjs$/.test(file),
);
try {
  // The build first: the approval gate and the schemas are what a change of words meets.
  if (run("node", ["scripts/ensure-build.ts"]) !== 0) {
    console.log("test:changed: the build failed (above: the file and the field, or the page to approve)");
    totals.failed++;
  } else {
    const vitest = join(scratch, "vitest.json");
    const vitestArgs = [
      "vitest",
      "run",
      "--project",
      "unit",
      "--project",
      "heavy",
      "--project",
      "records",
      "--changed",
      ...(ref ? [ref] : []),
      "--passWithNoTests",
    ];
    type VitestReport = { numPassedTests: number; numFailedTests: number; numPendingTests: number };
    count(
      vitest,
      run("npx", [...vitestArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${vitest}`]),
      (json: VitestReport) => ({
        passed: json.numPassedTests,
        failed: json.numFailedTests,
        skipped: json.numPendingTests,
      }),
    );
    type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
    const pick = ({ stats }: PlaywrightReport) => ({
      passed: stats.expected,
      failed: stats.unexpected + stats.flaky,
      skipped: stats.skipped,
    });
    const changedSpecs = join(scratch, "changed.json");
    count(
      changedSpecs,
      run("npx", ["playwright", "test", `--only-changed${ref ? `=${ref}` : ""}`, "--pass-with-no-tests"], { PW_JSON_REPORT: changedSpecs }),
      pick,
    );
    if (siteChanged) {
      const pages = join(scratch, "pages.json");
      const specs = ["tests/e2e/routes.spec.ts", "tests/e2e/legal.spec.ts", "tests/e2e/disclosures.spec.ts", "tests/a11y/axe.spec.ts"];
      count(pages, run("npx", ["playwright", "test", "--project", "chromium", ...specs], { PW_JSON_REPORT: pages }), pick);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`Total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
