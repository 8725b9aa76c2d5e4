import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { documentFiles } from "../../src/build/content-files.ts";
import { indexablePaths } from "../../src/build/documents.ts";
import { projectRoot } from "../../lib/root.ts";

const sections = ["A", "B", "C", "D", "E", "F"].map((s) => `  - "${s}"`).join("\n");
const frontMatter = (title: string, order: number | string) =>
  `---\ntitle: ${title}\norder: ${order}\ndescription: "A description long enough to pass the schema's fifty character minimum."\nlastUpdated: 2025-01-15\nsections:\n${sections}\n---\n\nBody.\n`;

let dir = "";
function project(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), "documents-"));
  for (const folder of ["src/content/legal", "src/content/disclosures"]) mkdirSync(join(dir, folder), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("document pages from the content collections", () => {
  it("lists this project's documents in footer order, legal pages before the disclosure", () => {
    expect(indexablePaths(documentFiles(projectRoot))).toEqual([
      "/",
      "/terms-of-service",
      "/privacy-policy",
      "/risk-disclosures",
      "/cookie-policy",
      "/business-continuity",
    ]);
  });

  it("takes a new Markdown file as a new page, placed by its order", () => {
    const root = project({
      "src/content/legal/b.md": frontMatter("B", 2),
      "src/content/legal/a.md": frontMatter("A", 3),
      "src/content/disclosures/c.md": frontMatter("C", 1),
    });
    expect(documentFiles(root).map((doc) => [doc.slug, doc.collection, doc.title])).toEqual([
      ["c", "disclosures", "C"],
      ["b", "legal", "B"],
      ["a", "legal", "A"],
    ]);
  });

  it("refuses two documents in one place, naming both files and the field", () => {
    const root = project({ "src/content/legal/a.md": frontMatter("A", 1), "src/content/legal/b.md": frontMatter("B", 1) });
    expect(() => documentFiles(root)).toThrow('src/content/legal/b.md: field "order" is 1, the same as in src/content/legal/a.md');
  });

  it("refuses a missing or wrong order, naming the file and the field", () => {
    const root = project({ "src/content/legal/a.md": frontMatter("A", '"first"') });
    expect(() => documentFiles(root)).toThrow(/^src\/content\/legal\/a\.md: field "order": /);
  });
});
