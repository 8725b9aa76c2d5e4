/**
 * `npm test -- --update-timings`'s behaviour inventory (scripts/lib/suite-timings.ts): every test of
 * every group once, by file, a test run in several Playwright projects on one line with each run's time.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeInventory, type FileTime } from "../../scripts/lib/suite-timings.ts";

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
