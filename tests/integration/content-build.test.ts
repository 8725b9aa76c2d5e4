import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The real build against broken copy: a copy of the project whose content file is replaced by a
 * broken fixture must fail `astro build` with a message naming the file and the field.
 */
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "broken-content-"));
  for (const entry of ["src", "integrations", "public", "astro.config.mjs", "tsconfig.json", "package.json"])
    if (existsSync(entry)) cpSync(entry, join(project, entry), { recursive: true });
  symlinkSync(join(process.cwd(), "node_modules"), join(project, "node_modules"));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

function buildWith(file: string, content: string) {
  const target = join(project, file);
  const original = readFileSync(target, "utf8");
  writeFileSync(target, content);
  try {
    const result = spawnSync("npx", ["astro", "build", "--outDir", join(project, "out")], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
  } finally {
    writeFileSync(target, original);
  }
}

describe("a broken content file fails the build", () => {
  it("names the YAML file and the field", () => {
    const { status, output } = buildWith(
      "src/content/landing/hero.yaml",
      readFileSync("tests/fixtures/content/hero-two-cards.yaml", "utf8"),
    );
    expect(status).not.toBe(0);
    expect(output).toContain("src/content/landing/hero.yaml");
    expect(output).toMatch(/valueCards/);
  });

  it("names the Markdown file and the field", () => {
    const { status, output } = buildWith(
      "src/content/legal/cookie-policy.md",
      readFileSync("tests/fixtures/content/legal-five-sections.md", "utf8"),
    );
    expect(status).not.toBe(0);
    expect(output).toContain("src/content/legal/cookie-policy.md");
    expect(output).toMatch(/sections/);
  });

  it("names the file when the body's headings drift from the declared sections", () => {
    const original = readFileSync("src/content/legal/cookie-policy.md", "utf8");
    const { status, output } = buildWith("src/content/legal/cookie-policy.md", original.replace(/^## 6\. .*$/m, "## 6. A renamed heading"));
    expect(status).not.toBe(0);
    expect(output).toContain("src/content/legal/cookie-policy.md");
    expect(output).toMatch(/field "sections"/);
  });
});
