import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The real build against broken copy: a copy of the project whose content file is replaced by a
 * broken fixture must fail `astro build` with a message naming the file and the field (or the headings).
 */
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "broken-content-"));
  // What the build reads: the sources, and approvals/ (the roster, the review policy and the ledger's review days).
  for (const entry of ["src", "integrations", "lib", "public", "approvals", "astro.config.mjs", "tsconfig.json", "package.json"])
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
    const original = readFileSync("src/content/legal/cookie-policy.md", "utf8");
    const { status, output } = buildWith(
      "src/content/legal/cookie-policy.md",
      original.replace(/^lastUpdated: .*$/m, "lastUpdated: sometime"),
    );
    expect(status).not.toBe(0);
    expect(output).toContain("src/content/legal/cookie-policy.md");
    expect(output).toMatch(/lastUpdated/);
  });

  it("names the file and its headings when the body has the wrong number of sections", () => {
    const { status, output } = buildWith(
      "src/content/legal/cookie-policy.md",
      readFileSync("tests/fixtures/content/legal-five-sections.md", "utf8"),
    );
    expect(status).not.toBe(0);
    expect(output).toContain(
      'src/content/legal/cookie-policy.md: the body has 5 "## " headings: "1. One", "2. Two", "3. Three", "4. Four", "5. Five"; this page needs exactly 6',
    );
  });

  it("refuses raw HTML and an unsafe link in a document, every one at once, naming the file, the line and the element", () => {
    const bcp = readFileSync("src/content/disclosures/business-continuity.md", "utf8");
    const before = bcp.split("\n").length;
    const edits = [
      "Contact us any time.<script>document.title=document.domain+String.fromCharCode(33)</script>",
      '<iframe src="https://evil.example/"></iframe>',
      "A chart <img src=x onerror=alert(1)> here.",
      "[Read more](javascript:alert(1))",
      "<!-- words hidden from the page -->",
    ];
    rmSync(join(project, "out"), { recursive: true, force: true });
    const { status, output } = buildWith("src/content/disclosures/business-continuity.md", `${bcp}\n${edits.join("\n\n")}\n`);
    expect(status).not.toBe(0);
    const file = "src/content/disclosures/business-continuity.md";
    const line = (i: number) => before + 1 + 2 * i;
    for (const sentence of [
      `${file}, line ${line(0)}: the text holds raw HTML (a <script> element), which the site does not publish`,
      `${file}, line ${line(1)}: the text holds raw HTML (an <iframe> element), which the site does not publish`,
      `${file}, line ${line(2)}: the text holds raw HTML (an <img> element with the inline handler onerror), which the site does not publish`,
      `${file}, line ${line(3)}: the link "Read more" goes to "javascript:alert(1)"; a link may go only to an https:, mailto: or tel: address`,
      `${file}, line ${line(4)}: the text holds an HTML comment (<!-- … -->), which hides its words from the page but not from the file; remove it.`,
    ])
      expect(output).toContain(sentence);
    expect(output).toContain("Nothing was built.");
    expect(existsSync(join(project, "out"))).toBe(false);
  });

  it("refuses a plain http: link, naming the file and the line", () => {
    const original = readFileSync("src/content/legal/risk-disclosures.md", "utf8");
    const line = original.split("\n").findIndex((l) => l.includes("[FINRA](https://www.finra.org)")) + 1;
    const { status, output } = buildWith(
      "src/content/legal/risk-disclosures.md",
      original.replace("[FINRA](https://www.finra.org)", "[FINRA](http://www.finra.org)"),
    );
    expect(status).not.toBe(0);
    expect(output).toContain(`src/content/legal/risk-disclosures.md, line ${line}: the link "FINRA" goes to "http://www.finra.org"`);
  });

  it("names the file when a disclosure takes an address the site keeps", () => {
    const bcp = readFileSync("src/content/disclosures/business-continuity.md", "utf8");
    writeFileSync(join(project, "src/content/disclosures/sitemap.md"), bcp.replace(/^order: .*$/m, "order: 9"));
    try {
      const { status, output } = buildWith("src/content/disclosures/business-continuity.md", bcp);
      expect(status).not.toBe(0);
      expect(output).toContain("src/content/disclosures/sitemap.md: the file's name gives the address /sitemap, which is the sitemap's");
    } finally {
      rmSync(join(project, "src/content/disclosures/sitemap.md"));
    }
  });
});
