/**
 * `npm test -- --update-timings`'s behaviour inventory (scripts/lib/suite-timings.ts): every test of
 * every group once, by file, a test run in several Playwright projects on one line with each run's time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failures, playwrightFiles, vitestFiles, writeInventory, type FileTime } from "../../scripts/lib/suite-timings.ts";

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
