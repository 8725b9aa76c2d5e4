/** One mapping between a page's path and its files (lib/pages.ts), both ways. */
import { describe, expect, it } from "vitest";
import { flatStem, htmlFileOf, pageOfHtmlFile, pageStem } from "../../lib/pages.ts";

describe("a page's path and its files", () => {
  it.each([
    // page, stem, HTML file, flat stem (a capture's PDF)
    ["/", "index", "index.html", "index"],
    ["/privacy-policy", "privacy-policy", "privacy-policy.html", "privacy-policy"],
    ["/404", "404", "404.html", "404"],
    ["/a/b", "a/b", "a/b.html", "a_b"],
  ])("%s: %s, %s, %s", (page, stem, html, flat) => {
    expect(pageStem(page)).toBe(stem);
    expect(htmlFileOf(page)).toBe(html);
    expect(flatStem(page)).toBe(flat);
    // And back from the built file to the page.
    expect(pageOfHtmlFile(html)).toBe(page);
  });
});
