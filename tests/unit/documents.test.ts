import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { documentFiles } from "../../src/build/content-files.ts";
import { builtPaths, indexablePaths, pageNamer } from "../../src/build/documents.ts";
import { projectRoot } from "../../lib/root.ts";
import { INDEXABLE_PATHS } from "../support/pages.ts";

const frontMatter = (title: string, order: number | string, extra = "") =>
  `---\ntitle: ${title}\norder: ${order}\ndescription: "A description long enough to pass the schema's fifty character minimum."\nlastUpdated: 2025-01-15\n${extra}---\n\n## One\n\nBody.\n`;

let dir = "";
function project(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), "documents-"));
  for (const folder of ["src/content/legal", "src/content/disclosures"]) mkdirSync(join(dir, folder), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("document pages from the content collections", () => {
  it("puts this project's legal pages in the footer's order, then the index, then the disclosure", () => {
    expect(indexablePaths(documentFiles(projectRoot))).toEqual(INDEXABLE_PATHS);
  });

  it("takes a new Markdown file as a new page: legal pages by order, disclosures by order then title", () => {
    const root = project({
      "src/content/legal/b.md": frontMatter("B", 2),
      "src/content/legal/a.md": frontMatter("A", 3),
      "src/content/disclosures/c.md": frontMatter("C", 1),
      "src/content/disclosures/fees.md": frontMatter("Fee Schedule", 2),
      // the same order as the fee schedule: its title puts it first, nothing fails
      "src/content/disclosures/routing.md": frontMatter("Order Routing", 2),
      "src/content/disclosures/ats.md": frontMatter("ATS Disclosures", 2),
    });
    expect(documentFiles(root).map((doc) => [doc.slug, doc.collection])).toEqual([
      ["b", "legal"],
      ["a", "legal"],
      ["c", "disclosures"],
      ["ats", "disclosures"],
      ["fees", "disclosures"],
      ["routing", "disclosures"],
    ]);
  });

  it("builds a withdrawn disclosure's notice but leaves it out of the sitemap's pages", () => {
    const root = project({
      "src/content/legal/a.md": frontMatter("A", 1),
      "src/content/disclosures/fees.md": frontMatter("Fee Schedule", 1, "withdrawn: 2026-12-01\n"),
      "src/content/disclosures/routing.md": frontMatter("Order Routing", 2, 'withdrawn: ""\n'),
    });
    const documents = documentFiles(root);
    expect(documents.find((d) => d.slug === "fees")?.withdrawn?.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(documents.find((d) => d.slug === "routing")?.withdrawn).toBeUndefined();
    expect(indexablePaths(documents)).toEqual(["/", "/a", "/disclosures", "/routing"]);
    expect(builtPaths(documents)).toEqual(["/", "/a", "/disclosures", "/routing", "/fees"]);
    const name = pageNamer(documents);
    expect(["/", "/fees", "/disclosures", "/404", "/other"].map(name)).toEqual([
      "Landing page",
      "Fee Schedule",
      "Disclosures",
      "Page not found (404)",
      "/other",
    ]);
  });

  it.each([
    // two legal pages in one place
    [
      { "src/content/legal/a.md": frontMatter("A", 1), "src/content/legal/b.md": frontMatter("B", 1) },
      'src/content/legal/b.md: field "order" is 1, the same as in src/content/legal/a.md; each legal page needs its own place',
    ],
    // a missing or wrong order
    [{ "src/content/legal/a.md": frontMatter("A", '"first"') }, /^src\/content\/legal\/a\.md: field "order": /],
    // an address a route has
    [
      { "src/content/disclosures/sitemap.md": frontMatter("Sitemap", 1) },
      "src/content/disclosures/sitemap.md: the file's name gives the address /sitemap, which is the sitemap's; rename the file",
    ],
    [
      { "src/content/disclosures/disclosures.md": frontMatter("Disclosures", 1) },
      "src/content/disclosures/disclosures.md: the file's name gives the address /disclosures, which is the disclosures index's; rename the file",
    ],
    // an address a legal page has
    [
      { "src/content/legal/fees.md": frontMatter("A", 1), "src/content/disclosures/fees.md": frontMatter("B", 1) },
      "src/content/disclosures/fees.md: the file's name gives the address /fees, which is src/content/legal/fees.md's; rename one of them",
    ],
    // not an address
    [
      { "src/content/disclosures/Fee_Schedule.md": frontMatter("Fee Schedule", 1) },
      "src/content/disclosures/Fee_Schedule.md: the file's name gives the address /Fee_Schedule; use only lower-case letters, digits and single hyphens",
    ],
    // the business continuity summary withdrawn
    [
      { "src/content/disclosures/business-continuity.md": frontMatter("Business Continuity Plan Summary", 1, "withdrawn: 2026-12-01\n") },
      'src/content/disclosures/business-continuity.md: field "withdrawn": Business Continuity Plan Summary cannot be withdrawn: FINRA Rule 4370 requires the summary of the business continuity plan on the website',
    ],
    // a legal page withdrawn
    [
      { "src/content/legal/a.md": frontMatter("A", 1, "withdrawn: 2026-12-01\n") },
      /^src\/content\/legal\/a\.md: field "\(front matter\)": the legal pages are the specification's four and cannot be withdrawn$/,
    ],
  ])("refuses, naming the file: %#", (files, message) => {
    expect(() => documentFiles(project(files))).toThrow(message);
  });
});
