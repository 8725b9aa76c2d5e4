/**
 * `npm test -- --update-timings`'s behaviour inventory (scripts/lib/suite-timings.ts): every test of
 * every group once, by file, a test run in several Playwright projects on one line with each run's time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failures, playwrightFiles, vitestFiles, writeInventory, type FileTime } from "../../scripts/lib/suite-timings.ts";
import ModuleTimesReporter, { MODULE_TIMES_ENV } from "../../scripts/lib/module-times-reporter.ts";
import type { TestModule } from "vitest/node";

describe("the behaviour inventory", () => {
  it("lists every test by file, once, with the groups that ran it and each run's seconds", () => {
    const files: FileTime[] = [
      { file: "tests/unit/b.test.ts", group: "unit", seconds: 1, tests: [{ name: "b > answers 404", seconds: 0.25 }] },
      {
        file: "tests/e2e/a.spec.ts",
        group: "playwright (chromium)",
        seconds: 3,
        tests: [
          { name: "banner > closes\non Escape", seconds: 1.5 },
          { name: "banner > stays closed", seconds: 150 },
        ],
      },
      {
        file: "tests/e2e/a.spec.ts",
        group: "playwright (mobile)",
        seconds: 2,
        tests: [{ name: "banner > closes\non Escape", seconds: 2 }],
      },
    ];
    const folder = mkdtempSync(join(tmpdir(), "inventory-"));
    try {
      const path = join(folder, "inventory.md");
      writeInventory(files, path);
      const text = readFileSync(path, "utf8");
      expect(text).toContain("3 tests in 2 files.");
      // Sorted by file; the behaviour once, with both projects' runs.
      expect(text.indexOf("## tests/e2e/a.spec.ts (playwright (chromium), playwright (mobile))")).toBeLessThan(
        text.indexOf("## tests/unit/b.test.ts (unit)"),
      );
      expect(text).toContain("- banner > closes on Escape (1.5 s, 2.0 s)\n- banner > stays closed (150 s)\n");
      expect(text).toContain("- b > answers 404 (0.3 s)\n");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("the failed tests, named before the Total line", () => {
  it("names each failed test with its error's first line, from Vitest's and Playwright's reports, a retried pass included", () => {
    const folder = mkdtempSync(join(tmpdir(), "failures-"));
    try {
      const vitest = join(folder, "vitest.json");
      writeFileSync(
        vitest,
        JSON.stringify({
          testResults: [
            {
              name: "/repo/tests/studio/a.test.ts",
              startTime: 0,
              endTime: 2000,
              status: "failed",
              message: "",
              assertionResults: [
                { fullName: "a > passes", duration: 5, status: "passed", failureMessages: [] },
                {
                  fullName: "a > publishes",
                  duration: 9,
                  status: "failed",
                  failureMessages: ["\u001b[31mAssertionError: expected 500 to be 200\u001b[39m\n    at a.test.ts:3"],
                },
              ],
            },
            {
              name: "/repo/tests/studio/b.test.ts",
              startTime: 0,
              endTime: 1,
              status: "failed",
              message: "Hook timed out in 60000ms",
              assertionResults: [],
            },
          ],
        }),
      );
      const playwright = join(folder, "playwright.json");
      writeFileSync(
        playwright,
        JSON.stringify({
          suites: [
            {
              file: "e2e/banner.spec.ts",
              title: "e2e/banner.spec.ts",
              specs: [
                { title: "closes", tests: [{ projectName: "chromium", status: "expected", results: [{ duration: 10, startTime: "" }] }] },
                {
                  title: "stays closed",
                  tests: [
                    {
                      projectName: "mobile",
                      status: "flaky",
                      results: [
                        {
                          duration: 10,
                          startTime: "",
                          error: { message: "\n  Timed out 5000ms waiting for expect(locator).toBeHidden()" },
                        },
                        { duration: 10, startTime: "" },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        }),
      );
      const files = [...vitestFiles(vitest, "/repo", () => "heavy"), ...playwrightFiles(playwright)];
      expect(failures(files)).toEqual([
        "Failed (3):",
        "  tests/studio/a.test.ts (heavy) > a > publishes: AssertionError: expected 500 to be 200",
        "  tests/studio/b.test.ts (heavy): Hook timed out in 60000ms",
        "  tests/e2e/banner.spec.ts (playwright (mobile)) > stays closed: Timed out 5000ms waiting for expect(locator).toBeHidden()",
      ]);
      expect(failures(files.filter(({ group }) => group === "playwright (chromium)"))).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("a Vitest file's time", () => {
  it("is its whole time on its worker (set-up, imports, hooks and tests) where the run wrote it, else its tests' span", () => {
    const folder = mkdtempSync(join(tmpdir(), "module-times-"));
    const before = process.env[MODULE_TIMES_ENV];
    try {
      // The reporter, at the run's end, as Vitest calls it: one module whose beforeAll started a studio.
      const diagnostic = { environmentSetupDuration: 100, prepareDuration: 400, setupDuration: 0, collectDuration: 1500, duration: 12_000 };
      const module = { moduleId: "/repo/tests/studio/a.test.ts", diagnostic: () => diagnostic } as unknown as TestModule;
      const whole = join(folder, "vitest.modules.json");
      process.env[MODULE_TIMES_ENV] = whole;
      new ModuleTimesReporter().onTestRunEnd([module]);
      expect(JSON.parse(readFileSync(whole, "utf8"))).toEqual({ "/repo/tests/studio/a.test.ts": 14 });

      const report = join(folder, "vitest.json");
      const result = (name: string) => ({ name, startTime: 5000, endTime: 7500, status: "passed", message: "", assertionResults: [] });
      writeFileSync(
        report,
        JSON.stringify({ testResults: [result("/repo/tests/studio/a.test.ts"), result("/repo/tests/unit/b.test.ts")] }),
      );
      const files = vitestFiles(report, "/repo", () => "heavy", JSON.parse(readFileSync(whole, "utf8")) as Record<string, number>);
      expect(files.map(({ file, seconds }) => [file, seconds])).toEqual([
        ["tests/studio/a.test.ts", 14],
        ["tests/unit/b.test.ts", 2.5],
      ]);
    } finally {
      if (before === undefined) delete process.env[MODULE_TIMES_ENV];
      else process.env[MODULE_TIMES_ENV] = before;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
