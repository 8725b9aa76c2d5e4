import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INSTALL_ALL, missingLine, systemDeps } from "../../scripts/lib/system-deps.ts";

describe("the programs the suites need", () => {
  it("the README's one install command is the one the code knows, and .ci/run and the CI workflow install from it", () => {
    const readme = readFileSync("README.md", "utf8");
    const lines = readme.split("\n").filter((line) => /^\s*sudo apt-get install --no-install-recommends /.test(line));
    expect(lines.map((line) => line.trim())).toEqual([INSTALL_ALL]);
    expect(readFileSync(".ci/system-packages", "utf8")).toContain(
      "sed -n 's/^ *sudo apt-get install --no-install-recommends //p' README.md",
    );
    expect(readFileSync(".ci/run", "utf8")).toContain("bash .ci/system-packages ||");
    expect(readFileSync(".github/workflows/ci.yml", "utf8")).toContain("run: npm run ci:system-packages");
  });

  it("a missing program names its apt packages: a skip locally, a failure under CI", () => {
    const previous = process.env.CI;
    try {
      delete process.env.CI;
      expect(missingLine("webkit")).toBe(
        `skipped: ${systemDeps.webkit.label} not found. Install it with: sudo apt-get install --no-install-recommends webkit2gtk-driver xvfb`,
      );
      process.env.CI = "true";
      expect(missingLine("nginx")).toMatch(
        /^FAILED: nginx with its brotli module not found, and CI must run every suite\. Install it with: /,
      );
    } finally {
      if (previous === undefined) delete process.env.CI;
      else process.env.CI = previous;
    }
  });
});
