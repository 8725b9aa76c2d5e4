/** The principal's view of a change: the word diff in plain words, and the marks on the rendered pages (studio/pages/). */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fromRoot } from "../../lib/root.ts";
import { changedWithContext, destinationChanges, diffRows, pageParts, readableLines, type Line, type Row } from "../../lib/words.ts";
import { extractPageText } from "../../lib/approval/text.ts";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { WordRows } from "../../studio/pages/word-rows.tsx";
import { markedPages } from "../../studio/pages/marks.ts";

const page = (body: string, title = "Fictive Markets") =>
  `<!doctype html><html lang="en"><head><title>${title}</title><script>alert(1)</script></head><body>${body}</body></html>`;
const changed = (before: string, after: string) =>
  diffRows(readableLines(before), readableLines(after))
    .filter((row) => row.changed)
    .map((row) => ({
      where: row.where,
      parts: row.parts.map((p) => (p.change ? `${p.change === "added" ? "+" : "-"}[${p.text}]` : p.text)).join(" "),
    }));

describe("the word diff in plain words", () => {
  it("shows a changed word as one deletion and one insertion, whole words, punctuation apart", () => {
    expect(
      changed(
        page("<h1>The trusted leader in digital asset trading.</h1>"),
        page("<h1>The trusted leader in digital-asset trading, today.</h1>"),
      ),
    ).toEqual([{ where: undefined, parts: "The trusted leader in -[digital asset] +[digital-asset] trading +[, today] ." }]);
  });

  it("names where a line is met instead of the gate's tags", () => {
    const before = page('<button aria-label="Close">×</button>', "Old title");
    const after = page('<button aria-label="Dismiss">×</button>', "New title");
    expect(changed(before, after).map((row) => row.where)).toEqual(["Page title (browser tab and search results)", "Screen-reader label"]);
  });

  it("names an island's words by the island and the field, never [island]", () => {
    const built = readFileSync(fromRoot("dist/index.html"), "utf8");
    const lines = readableLines(built);
    expect(lines.map((l) => l.text).join("\n")).not.toContain("[island]");
    expect(lines).toContainEqual({
      where: "Contact form: text when the form fails",
      text: "The contact form could not be loaded. Please write to us at",
    });
  });

  it("shows a changed link target as its old address and its new one, each one word, where every word stayed", () => {
    const before = page('<p>Read <a href="https://www.finra.org">FINRA</a> rules.</p>');
    const after = page('<p>Read <a href="https://finra-brokercheck.example-phish.net">FINRA</a> rules.</p>');
    expect(changed(before, after)).toEqual([
      { where: "Link", parts: "FINRA: -[https://www.finra.org] +[https://finra-brokercheck.example-phish.net]" },
    ]);
    // As the principal's review writes it under "The changed words".
    const rows = changedWithContext(diffRows(readableLines(before), readableLines(after)));
    const text = renderToStaticMarkup(createElement(WordRows, { rows })).replace(/<[^>]+>/g, "");
    expect(text).toContain("Link: FINRA: https://www.finra.org → https://finra-brokercheck.example-phish.net");
  });

  it("names each changed destination in one line: a new address, an added and a removed link, an image's source", () => {
    const before = page('<a href="https://www.finra.org">FINRA</a><a href="https://www.sec.gov">SEC</a><img src="/a.png" alt="Chart">');
    const after = page('<a href="https://finra.example-phish.net">FINRA</a><img src="/b.png" alt="Chart"><a href="/risk">Risk</a>');
    expect(destinationChanges(extractPageText(before), extractPageText(after))).toEqual([
      "FINRA: https://www.finra.org → https://finra.example-phish.net",
      "SEC: removed (it went to https://www.sec.gov)",
      "Image Chart: /a.png → /b.png",
      "Risk: added, /risk",
    ]);
  });

  it("keeps the changed lines with one line of context, and counts the rest", () => {
    const lines = (n: number, at: number, word: string) =>
      page(Array.from({ length: n }, (_, i) => `<p>Line ${i}${i === at ? ` ${word}` : ""}</p>`).join(""));
    const rows = changedWithContext(diffRows(readableLines(lines(20, 10, "")), readableLines(lines(20, 10, "new"))));
    expect(rows.map((r) => ("skipped" in r ? `…${r.skipped}` : (r as Row).parts.map((p) => p.text).join(" ")))).toEqual([
      "…10",
      "Line 9",
      "Line 10 new",
      "Line 11",
      "…8",
    ]);
  });
});

describe("a page's own words and the parts every page shares (decision 0044)", () => {
  const chrome = (main: string) =>
    page(
      `<a href="#main">Skip to content</a><section aria-label="Cookie consent"><p>We use essential storage.</p></section>` +
        `<header><a href="/">Home</a></header>${main}<footer><p>© Fictive Markets</p><a href="/terms-of-service">Terms</a></footer>`,
      "Fee Schedule | Fictive Markets",
    );
  const texts = (lines: readonly Line[]) => lines.map((l) => (l.where ? `${l.where}: ${l.text}` : l.text));

  it("reads the head lines and <main> as the page's own, the rest of <body> as shared, and nothing else", () => {
    const parts = pageParts(
      chrome('<main id="main"><h1>Fee Schedule</h1><p>A fee <a href="https://www.finra.org">per share</a>.</p></main>'),
    )!;
    expect(texts(parts.own)).toEqual([
      "Page title (browser tab and search results): Fee Schedule | Fictive Markets",
      "Fee Schedule",
      "A fee per share.",
      "Link: per share: https://www.finra.org",
    ]);
    expect(texts(parts.shared)).toEqual([
      "Skip to content",
      "We use essential storage.",
      "Home",
      "© Fictive Markets",
      "Terms",
      "Screen-reader label: Cookie consent",
      "Link: Skip to content: #main",
      "Link: Home: /",
      "Link: Terms: /terms-of-service",
    ]);
  });

  it.each([
    // No main: nothing says which words are the page's own.
    ["a page without <main>", page("<h1>Fee Schedule</h1>")],
    // Two: the gate reads both, and either could be the page's.
    ["a page with two <main>", page("<main><p>One</p></main><main hidden><p>Two</p></main>")],
    ["no page at all", ""],
  ])("cuts %s in no parts (the review then lists it whole)", (_, html) => {
    expect(pageParts(html)).toBeUndefined();
  });

  it("cuts every built page in two parts that hold all its lines, and the legal pages share theirs word for word", () => {
    const built = ["index", "privacy-policy", "terms-of-service", "business-continuity", "disclosures", "404"].map((name) =>
      readFileSync(fromRoot(`dist/${name}.html`), "utf8"),
    );
    const parts = built.map((html) => pageParts(html));
    for (const [i, html] of built.entries()) {
      expect(parts[i], `page ${i}`).toBeDefined();
      expect(parts[i]!.own.length + parts[i]!.shared.length).toBe(readableLines(html).length);
    }
    expect(texts(parts[1]!.shared)).toEqual(texts(parts[3]!.shared));
    expect(texts(parts[1]!.shared)).toContain("Skip to content");
    expect(texts(parts[1]!.own).join("\n")).not.toContain("Skip to content");
  });

  it("cuts a page once for every review that reads it, and gives every reader the same read-only lines", () => {
    const html = readFileSync(fromRoot("dist/privacy-policy.html"), "utf8");
    const first = pageParts(html)!;
    // The same text read again from the disk (another string): the cut made before.
    const again = pageParts(readFileSync(fromRoot("dist/privacy-policy.html"), "utf8"))!;
    expect(again).toBe(first);
    expect(Object.isFrozen(first.own) && Object.isFrozen(first.shared) && Object.isFrozen(first.own[0])).toBe(true);
    // Another page's text is cut for itself.
    expect(pageParts(html.replace("Privacy Policy", "Privacy Notice"))).not.toBe(first);
  });
});

describe("the rendered pages, marked", () => {
  it("marks the words an entry adds on its page, the words it removes on the approved page, and removes every script", () => {
    const marked = markedPages(page("<p>Settle <b>digital asset</b> trades.</p>"), page("<p>Settle <b>digital-asset</b> trades now.</p>"));
    expect(marked.entry).toContain('<mark class="studio-added" id="studio-change">digital-asset</mark>');
    expect(marked.entry).toContain('trades <mark class="studio-added">now</mark>');
    expect(marked.approved).toContain('<mark class="studio-removed" id="studio-change">digital asset</mark>');
    expect(marked.entry + marked.approved).not.toContain("<script");
  });
});
