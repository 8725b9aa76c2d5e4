import { existsSync, globSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  approveCommand,
  DRAFT_NOTICE,
  emptyLedger,
  failureLine,
  LEDGER_FILE,
  markDraft,
  unmarkDraft,
  parseLedger,
  recordApproval,
  serializeLedger,
  textFileOf,
  unapprovedPages,
} from "../../lib/approval/ledger.ts";
import { pageOfHtmlFile } from "../../lib/pages.ts";
import { EVERY_PAGE, pageSources } from "../../lib/approval/sources.ts";
import { destinationsOf, extractPageText, pageTextHash } from "../../lib/approval/text.ts";
import { serializeProps } from "astro/runtime/server/serialize.js";
import { decodeAstroProps, islandPropTexts, OpaqueProp } from "../../lib/approval/island-props.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { builtPaths } from "../../src/build/documents.ts";
import { projectRoot as root } from "../../lib/root.ts";

const fixture = (name: string) => readFileSync(`tests/fixtures/approval/${name}`, "utf8");

/** A page around a body, so that each case below states only what differs. */
const page = (body: string, head = "<title>T</title>") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const hashOf = (html: string) => pageTextHash(extractPageText(html));
/** Astro's attribute encoding of island props (JSON, HTML-escaped). */
const island = (props: object, inner = "") =>
  `<astro-island uid="u" props="${JSON.stringify(props).replace(/&/g, "&amp;").replace(/"/g, "&quot;")}" ssr>${inner}</astro-island>`;

describe("page text extraction", () => {
  it("reads title, description, body text, labels, island props and destinations of the fixture page, in that order", () => {
    expect(extractPageText(fixture("page.html"))).toBe(fixture("page.txt"));
  });

  it("reads the fixture page under rule 1 without its destinations, as captures made before rule 2 are verified", () => {
    expect(extractPageText(fixture("page.html"), "page-text/1")).toBe(fixture("page-rule1.txt"));
    expect(fixture("page.txt").startsWith(fixture("page-rule1.txt"))).toBe(true);
  });

  it("names each destination of a rule 2 text by its kind, name and address", () => {
    expect(destinationsOf(extractPageText(fixture("page.html")))).toContainEqual({
      kind: "link",
      name: "Risk Disclosures",
      target: "/risk",
    });
    expect(destinationsOf(extractPageText(fixture("page.html")))).toContainEqual({
      kind: "island link",
      name: "frameUrl",
      target: "https://forms.example.net/x",
    });
    // A name may itself hold ": " (a heading's own link); the address never does.
    expect(destinationsOf("[link] Link to section: 1. Market Risk: #1-market-risk\n")).toEqual([
      { kind: "link", name: "Link to section: 1. Market Risk", target: "#1-market-risk" },
    ]);
  });

  it.each([
    // Each row: a change a developer makes without touching the words; the hash must not move.
    ["classes", page('<p class="a">Hello world</p>'), page('<p class="b text-lg">Hello world</p>')],
    ["a wrapper element", page("<p>Hello world</p>"), page("<div><section><p>Hello world</p></section></div>")],
    ["tag names", page("<div>Hello world</div>"), page("<p>Hello world</p>")],
    ["inline to block", page("<span>Hello</span><span>world</span>"), page("<div>Hello</div><div>world</div>")],
    [
      "list items around links",
      page('<nav><a href="/">About</a><a href="/f">Features</a></nav>'),
      page('<nav><ul><li><a href="/">About</a></li><li><a href="/f">Features</a></li></ul></nav>'),
    ],
    ["line breaks and indentation", page("<p>Hello world</p>"), page("<p>\n    Hello\n    world\n  </p>")],
    ["attributes and their order", page('<p id="a" data-x="1">Hello world</p>'), page('<p data-x="2" id="b" hidden>Hello world</p>')],
    ["inline styles and scripts", page("<p>Hello world</p>"), page("<style>p{}</style><p>Hello world</p><script>1</script>")],
    ["an SVG icon", page("<p>Hello world</p>"), page('<p><svg viewBox="0 0 1 1"><path d="M0 0"/></svg>Hello world</p>')],
    [
      "island hydration options",
      page(island({ title: [0, "Hi"] })),
      page(island({ title: [0, "Hi"] }).replace("ssr", 'ssr client="idle" opts="{}"')),
    ],
    ["a renamed island prop", page(island({ title: [0, "Hi"] })), page(island({ heading: [0, "Hi"] }))],
    ["an island's icon data", page(island({ icon: [0, "shield"] })), page(island({ icon: [0, "zap"], iconNode: [1, []] }))],
    ["a link's classes and rel", page('<a href="/r">Risk</a>'), page('<a class="x" rel="noopener" href="/r">Risk</a>')],
  ])("keeps the hash when only %s change", (_, before, after) => {
    expect(hashOf(after)).toBe(hashOf(before));
  });

  it.each([
    // Each row: a change rule 1 did not see (so captures made under it keep their hash); rule 2 does.
    ["a link around a phrase", page("<p>Read our Risk Disclosures.</p>"), page('<p>Read our <a href="/r">Risk Disclosures</a>.</p>')],
    [
      "a link's target",
      page('<a href="https://www.finra.org">FINRA</a>'),
      page('<a href="https://finra-brokercheck.example-phish.net">FINRA</a>'),
    ],
    ["an image's source", page('<img src="/a.png" alt="Chart">'), page('<img src="/b.png" alt="Chart">')],
    [
      "a frame's source",
      page('<iframe title="Form" src="https://a.example/"></iframe>'),
      page('<iframe title="Form" src="https://b.example/"></iframe>'),
    ],
    [
      "an island's form address",
      page(island({ frameUrl: [0, "https://a.example/x"] })),
      page(island({ frameUrl: [0, "https://b.example/y"] })),
    ],
    ["an island's link-like text", page(island({ more: [0, "/terms"] })), page(island({ more: [0, "/privacy"] }))],
  ])("changes the hash when %s changes, which rule 1 did not", (_, before, after) => {
    expect(hashOf(after)).not.toBe(hashOf(before));
    expect(pageTextHash(extractPageText(after, "page-text/1"))).toBe(pageTextHash(extractPageText(before, "page-text/1")));
  });

  it.each([
    // Each row: a change a visitor can read; the hash must move.
    ["a word", page("<p>Hello world</p>"), page("<p>Hello there</p>")],
    [
      "punctuation",
      page("<p>Past performance does not guarantee results.</p>"),
      page("<p>Past performance does not guarantee results!</p>"),
    ],
    ["a digit", page("<p>CRD #000000</p>"), page("<p>CRD #000001</p>")],
    ["the order of paragraphs", page("<p>One</p><p>Two</p>"), page("<p>Two</p><p>One</p>")],
    ["the page title", page("<p>x</p>", "<title>A</title>"), page("<p>x</p>", "<title>B</title>")],
    [
      "the meta description",
      page("<p>x</p>", '<title>T</title><meta name="description" content="A">'),
      page("<p>x</p>", '<title>T</title><meta name="description" content="B">'),
    ],
    ["an aria-label", page('<button aria-label="Close">x</button>'), page('<button aria-label="Dismiss">x</button>')],
    ["an image's alt text", page('<img src="a.png" alt="Chart">'), page('<img src="a.png" alt="Graph">')],
    ["a placeholder", page('<input placeholder="Your e-mail">'), page('<input placeholder="Your address">')],
    ["hidden text (screen readers)", page('<span class="sr-only">Skip to content</span>'), page('<span class="sr-only">Skip</span>')],
    [
      "a popup's copy in island props",
      page(island({ text: [0, "We are still building."] })),
      page(island({ text: [0, "We have launched."] })),
    ],
    ["a number in island props", page(island({ percent: [0, 75] })), page(island({ percent: [0, 80] }))],
    [
      "a text nested in island props",
      page(island({ items: [1, [[0, { title: [0, "A"] }]]] })),
      page(island({ items: [1, [[0, { title: [0, "B"] }]]] })),
    ],
    ["the contact e-mail in island props", page(island({ email: [0, "a@example.com"] })), page(island({ email: [0, "b@example.com"] }))],
  ])("changes the hash when %s changes", (_, before, after) => {
    expect(hashOf(after)).not.toBe(hashOf(before));
  });

  it("hashes the text without its white space, so the approved file and the build agree however lines wrap", () => {
    expect(pageTextHash("a b\nc\n")).toBe(pageTextHash("ab c"));
    expect(pageTextHash("a b")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("island props", () => {
  it.each([
    // Astro's [type, value] tuples (astro/runtime/server/serialize.js), one row per type.
    ["a string", [0, "x"], "x"],
    ["a number", [0, 7], 7],
    ["undefined", [0], undefined],
    ["an object", [0, { a: [0, "b"] }], { a: "b" }],
    [
      "an array",
      [
        1,
        [
          [0, "a"],
          [0, 1],
        ],
      ],
      ["a", 1],
    ],
    ["a date", [3, "2025-01-01T00:00:00.000Z"], "2025-01-01T00:00:00.000Z"],
    [
      "a Map",
      [
        4,
        [
          [
            1,
            [
              [0, "k"],
              [0, "v"],
            ],
          ],
        ],
      ],
      [["k", "v"]],
    ],
    ["a Set", [5, [[0, "a"]]], ["a"]],
    ["a BigInt", [6, "12"], "12"],
    ["Infinity", [11, 1], Infinity],
  ])("decodes %s", (_, tuple, expected) => {
    expect(decodeAstroProps(JSON.stringify({ p: tuple })).p).toEqual(expected);
  });

  it.each([
    ["a URL", [7, "https://example.com/"], "url"],
    ["a RegExp", [2, "a+"], "regexp"],
    ["a Uint8Array", [8, [1, 2]], "binary"],
  ])("keeps %s apart from text", (_, tuple, kind) => {
    const decoded = decodeAstroProps(JSON.stringify({ p: tuple })).p;
    expect(decoded).toBeInstanceOf(OpaqueProp);
    expect((decoded as OpaqueProp).kind).toBe(kind);
    expect(islandPropTexts(decoded)).toEqual([]);
  });

  it("gives back every type Astro's own encoder writes (astro/runtime/server/serialize.js, the pinned version)", () => {
    // Plain values come back as they went in; the others as Astro's own encoder represents them.
    const plain = {
      text: "Under Development",
      figure: 75,
      flag: true,
      none: null,
      missing: undefined,
      nested: { heading: "Bank-Grade Security", list: ["a", 2] },
    };
    const props = {
      ...plain,
      date: new Date("2025-01-01T00:00:00.000Z"),
      map: new Map([["k", "v"]]),
      set: new Set(["a"]),
      big: 12n,
      up: Infinity,
      down: -Infinity,
      url: new URL("https://example.com/a"),
      pattern: /a+/,
      bytes: new Uint8Array([1, 2]),
      words: new Uint16Array([3]),
      longs: new Uint32Array([4]),
    };
    const decoded = decodeAstroProps(serializeProps(props, { displayName: "Sample", astroStaticSlot: true }));
    const { url, pattern, bytes, words, longs, ...readable } = decoded;
    expect(readable).toEqual({
      ...plain,
      date: "2025-01-01T00:00:00.000Z",
      map: [["k", "v"]],
      set: ["a"],
      big: "12",
      up: Infinity,
      down: -Infinity,
    });
    expect([url, pattern, bytes, words, longs].map((value) => (value as OpaqueProp).kind)).toEqual([
      "url",
      "regexp",
      "binary",
      "binary",
      "binary",
    ]);
    expect(islandPropTexts(decoded)).toEqual([
      "Under Development",
      "75",
      "Bank-Grade Security",
      "a",
      "2",
      "2025-01-01T00:00:00.000Z",
      "k",
      "v",
      "a",
      "12",
    ]);
  });

  it("rejects what Astro never writes", () => {
    expect(() => decodeAstroProps('{"p":[99,"x"]}')).toThrow(/unknown Astro prop type 99/);
    expect(() => decodeAstroProps('{"p":"bare"}')).toThrow(/tuple/);
  });

  it("takes words, numbers and dates as text, and skips identifiers, links, icons, flags and empty strings", () => {
    const props = decodeAstroProps(
      JSON.stringify({
        heading: [0, "Under  Development"],
        figure: [0, "24/7"],
        percent: [0, 75],
        isHome: [0, true],
        formId: [0, "contact-us-demo"],
        scriptUrl: [0, "https://forms.example.net/a.js"],
        analyticsScriptUrl: [0, ""],
        href: [0, "/cookie-policy"],
        mail: [0, "mailto:a@example.com"],
        anchor: [0, "#contact"],
        slot: [0, "end"],
        icon: [0, "shield"],
        iconNode: [
          1,
          [
            [
              1,
              [
                [0, "path"],
                [0, { d: [0, "M1 2"] }],
              ],
            ],
          ],
        ],
        updated: [3, "2025-01-01T00:00:00.000Z"],
        email: [0, "bizdev@example.com"],
      }),
    );
    expect(islandPropTexts(props)).toEqual(["Under Development", "24/7", "75", "2025-01-01T00:00:00.000Z", "bizdev@example.com"]);
  });
});

describe("ledger", () => {
  const a = "a".repeat(64);
  const b = "b".repeat(64);
  const t1 = new Date("2026-01-02T03:04:05.678Z");
  const t2 = new Date("2026-02-03T04:05:06Z");

  it("records who approved which text and when, keeping the approvals it replaces", () => {
    const first = recordApproval(emptyLedger(), "/", a, "  Pat   Example, Series 24 ", t1);
    expect(first.changed).toBe(true);
    // Each approval says which rule of the text its hash is of (approvals before rule 2 say none: rule 1).
    expect(first.ledger.pages["/"]).toEqual({
      sha256: a,
      textRule: "page-text/2",
      approvedBy: "Pat Example, Series 24",
      approvedOn: "2026-01-02T03:04:05Z",
      history: [],
    });
    const second = recordApproval(first.ledger, "/", b, "Sam Sample, Series 24", t2);
    expect(second.ledger.pages["/"]).toEqual({
      sha256: b,
      textRule: "page-text/2",
      approvedBy: "Sam Sample, Series 24",
      approvedOn: "2026-02-03T04:05:06Z",
      history: [{ sha256: a, textRule: "page-text/2", approvedBy: "Pat Example, Series 24", approvedOn: "2026-01-02T03:04:05Z" }],
    });
  });

  it("leaves an already approved text as it was", () => {
    const { ledger } = recordApproval(emptyLedger(), "/", a, "Pat Example", t1);
    const again = recordApproval(ledger, "/", a, "Someone Else", t2);
    expect(again.changed).toBe(false);
    expect(again.ledger).toBe(ledger);
  });

  it("refuses an approval without a name", () => {
    expect(() => recordApproval(emptyLedger(), "/", a, "   ", t1)).toThrow(/--by/);
  });

  it("serializes pages in path order and fields in one order, and reads back what it wrote", () => {
    let ledger = recordApproval(emptyLedger(), "/z", a, "P", t1).ledger;
    ledger = recordApproval(ledger, "/", b, "P", t1).ledger;
    const json = serializeLedger(ledger);
    expect(Object.keys(JSON.parse(json).pages)).toEqual(["/", "/z"]);
    expect(json.indexOf('"sha256"')).toBeLessThan(json.indexOf('"approvedBy"'));
    expect(json.endsWith("}\n")).toBe(true);
    expect(parseLedger(json)).toEqual(ledger);
  });

  it.each([
    ["not JSON", "{", /approvals\/ledger.json: not JSON/],
    [
      "a short hash",
      JSON.stringify({ pages: { "/": { sha256: "abc", approvedBy: "P", approvedOn: "2026-01-01T00:00:00Z", history: [] } } }),
      /pages\.\/\.sha256/,
    ],
    [
      "no name",
      JSON.stringify({ pages: { "/": { sha256: a, approvedBy: " ", approvedOn: "2026-01-01T00:00:00Z", history: [] } } }),
      /approvedBy/,
    ],
    ["a bad date", JSON.stringify({ pages: { "/": { sha256: a, approvedBy: "P", approvedOn: "yesterday", history: [] } } }), /approvedOn/],
    ["an unknown field", JSON.stringify({ pages: {}, extra: 1 }), /extra/],
  ])("names the file and the field for %s", (_, json, message) => {
    expect(() => parseLedger(json)).toThrow(message);
  });

  it("finds the pages whose text is new or changed", () => {
    const { ledger } = recordApproval(emptyLedger(), "/", a, "P", t1);
    expect(
      unapprovedPages(
        [
          { page: "/", sha256: a },
          { page: "/x", sha256: a },
        ],
        ledger,
      ),
    ).toEqual([{ page: "/x", sha256: a, reason: "new" }]);
    expect(unapprovedPages([{ page: "/", sha256: b }], ledger)).toEqual([{ page: "/", sha256: b, reason: "changed" }]);
  });
});

describe("pages, sources and messages", () => {
  it.each([
    ["index.html", "/"],
    ["404.html", "/404"],
    ["terms-of-service.html", "/terms-of-service"],
    ["docs/index.html", "/docs"],
    ["docs/a.html", "/docs/a"],
  ])("maps %s to %s", (file, path) => {
    expect(pageOfHtmlFile(file)).toBe(path);
  });

  it("keeps each approved text in a file named after the page", () => {
    expect(textFileOf("/")).toBe("approvals/text/index.txt");
    expect(textFileOf("/cookie-policy")).toBe("approvals/text/cookie-policy.txt");
  });

  it("names the page, its content files and the approve command in one line", () => {
    const line = failureLine("/cookie-policy", "changed", root);
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain("/cookie-policy differs from its approved text");
    expect(line).toContain("src/content/legal/cookie-policy.md");
    expect(line).toContain("src/config/site.ts");
    expect(line).toContain(approveCommand(["/cookie-policy"]));
    expect(failureLine("/new-page", "new", root)).toMatch(/\/new-page has never been approved.*lib\/approval\/sources\.ts/);
  });

  it("has a sources entry for every page the site builds", () => {
    expect(Object.keys(pageSources(root)).sort()).toEqual(["/404", ...builtPaths(documentFiles(root))].sort());
  });

  it("names only files that exist", () => {
    const named = [EVERY_PAGE, ...Object.values(pageSources(root))].flatMap((s) => [...s.content, ...s.templates]);
    // Only "*" is a wildcard here: "[document].astro" is a file name.
    for (const name of new Set(named)) expect(name.includes("*") ? globSync(name).length > 0 : existsSync(name), name).toBe(true);
  });
});

describe("draft marking", () => {
  const html = page("<p>Hello</p>", '<meta charset="utf-8"><title>T</title>');

  it("adds a visible banner first in <body> and noindex, styled without a style attribute", () => {
    const marked = markDraft(html);
    expect(marked).toMatch(/<body><aside class="approval-draft"[^>]*><p>Draft: not approved for publication<\/p><\/aside><p>Hello/);
    expect(marked).toContain('<meta name="robots" content="noindex">');
    expect(marked).toMatch(/<style>\.approval-draft\{/);
    expect(marked).not.toMatch(/\sstyle=/);
    expect(extractPageText(marked)).toContain(DRAFT_NOTICE);
  });

  it("does not add a second robots tag to a page that is already noindex", () => {
    const marked = markDraft(page("<p>x</p>", '<title>T</title><meta name="robots" content="noindex">'));
    expect(marked.match(/name="robots"/g)).toHaveLength(1);
  });

  it.each([
    ["a page that may be indexed", html],
    ["a page already noindex, its robots tag last in <head>", page("<p>x</p>", '<title>T</title><meta name="robots" content="noindex">')],
  ])("takes the mark off %s byte for byte, the page's own robots tag kept", (_, original) => {
    expect(markDraft(original)).not.toBe(original);
    expect(unmarkDraft(markDraft(original))).toBe(original);
  });
});

describe("the committed approvals", () => {
  const ledger = parseLedger(readFileSync(LEDGER_FILE, "utf8"));

  it("approve every page the site builds", () => {
    expect(Object.keys(ledger.pages).sort()).toEqual(Object.keys(pageSources(root)).sort());
  });

  it("keep, for each page, the text whose hash the ledger records", () => {
    for (const [path, entry] of Object.entries(ledger.pages)) {
      const file = textFileOf(path);
      expect(existsSync(file), file).toBe(true);
      expect(pageTextHash(readFileSync(file, "utf8")), file).toBe(entry.sha256);
    }
  });
});
