/**
 * The text a principal approves: what a visitor can read on a page, taken from the built HTML
 * (deterministic, no browser). Markup, classes and styles do not change it; wording does.
 *
 * The rule, in order of the document:
 * - `[page title]` the `<title>`; `[page description]` the meta description; `[social title]` and
 *   `[social description]` the Open Graph / Twitter title and description where they differ from those two.
 * - Every text node of `<body>`, `<template>` content and `<noscript>` fallbacks included; `<script>` and
 *   `<style>` excluded. Hidden text (screen-reader-only, the banner CSS hides for a returning visitor)
 *   counts: some visitor reads it.
 * - For reading, one line per block: every element except the phrasing elements in `INLINE` (a, b, span, …)
 *   and Astro's island wrappers starts and ends a line; within a line, runs of white space become one
 *   space; lines are trimmed and empty lines dropped. Text is Unicode NFC.
 * - Then, in document order, `[label] …` for each human-readable attribute (`READABLE_ATTRIBUTES`:
 *   aria-label, alt, title, placeholder, …) and the label of an `<input type="submit|button|reset">`.
 * - Then, in document order, `[island] …` for each text value in an `<astro-island>`'s serialized
 *   `props` (the copy a React island renders only in the browser, such as a popup): see `islandPropTexts`.
 * - Rule 2 (`page-text/2`, since 2026-11-27; decision 0043) then adds where the page sends and what it
 *   shows, in document order: `[link] <its name>: <href>` (its aria-label, else its words) for each `<a href>` and `<area href>`,
 *   `[image] <alt>: <src>` for each `<img>`, `[frame] <title>: <src>` for each `<iframe src>`, and
 *   `[island link] <prop>: <value>` for each link in an island's props (`islandPropLinks`), so that a
 *   changed destination is a changed text. Rule 1 (`page-text/1`) stops before them; captures made
 *   under it are verified under it.
 *
 * The text is those lines, each ending in "\n"; `pageTextHash` says what of it is hashed.
 */
import { select, selectAll } from "hast-util-select";
import { find, html as htmlSchema } from "property-information";
import { parseHtml, type Element, type Root } from "../html.ts";
import { sha256Hex } from "../hash.ts";
import { decodeAstroProps, islandPropLinks, islandPropTexts } from "./island-props.ts";

/** Phrasing elements that continue a line instead of starting one. */
const INLINE = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "cite",
  "code",
  "data",
  "dfn",
  "em",
  "i",
  "img",
  "kbd",
  "label",
  "mark",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "svg",
  "time",
  "u",
  "var",
  "wbr",
  // Astro's wrappers render as `display: contents`: adding or removing hydration must not change lines.
  "astro-island",
  "astro-slot",
]);

/** Never read: code and styling. */
const SKIPPED = new Set(["script", "style"]);

/** Attributes whose value a visitor reads or hears. */
export const READABLE_ATTRIBUTES = [
  "aria-label",
  "aria-description",
  "aria-roledescription",
  "aria-valuetext",
  "alt",
  "title",
  "placeholder",
];

const normalize = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim();

/** An attribute's value as written (hast keeps attributes as typed properties). */
function attr(node: Element, name: string): string | undefined {
  const value = node.properties[find(htmlSchema, name).property];
  if (value === undefined || value === null || value === false) return undefined;
  return Array.isArray(value) ? value.join(" ") : String(value);
}

function headLines(head: Element | undefined): string[] {
  if (!head) return [];
  const lines: string[] = [];
  const seen = new Set<string>();
  const add = (label: string, value: string | undefined) => {
    const text = normalize(value ?? "");
    if (!text || seen.has(text)) return;
    seen.add(text);
    lines.push(`[${label}] ${text}`);
  };
  const metas = selectAll("meta", head);
  const meta = (key: "name" | "property", value: string) => {
    const found = metas.find((m) => attr(m, key) === value);
    return found && attr(found, "content");
  };
  const title = select("title", head);
  add("page title", title?.children.map((child) => (child.type === "text" ? child.value : "")).join(""));
  add("page description", meta("name", "description"));
  add("social title", meta("property", "og:title"));
  add("social title", meta("name", "twitter:title"));
  add("social description", meta("property", "og:description"));
  add("social description", meta("name", "twitter:description"));
  return lines;
}

/** The rules of the text, oldest first: what a ledger's, a capture's or a review's hash was computed under. */
export const TEXT_RULES = ["page-text/1", "page-text/2"] as const;
export type TextRule = (typeof TEXT_RULES)[number];
/** The rule the build, the studio and new captures use. */
export const TEXT_RULE: TextRule = "page-text/2";

/** Where an element sends the visitor or what it shows them, as rule 2 records it; undefined for any other element. */
function destination(node: Element): string | undefined {
  const tag = node.tagName;
  const named = (label: string, words: string, target: string | undefined) =>
    target === undefined ? undefined : `[${label}] ${words || "(no words)"}: ${normalize(target)}`;
  if (tag === "a" || tag === "area")
    return named("link", normalize(attr(node, "aria-label") || toWords(node) || attr(node, "alt") || ""), attr(node, "href"));
  if (tag === "img") return named("image", normalize(attr(node, "alt") ?? ""), attr(node, "src"));
  if (tag === "iframe") return named("frame", normalize(attr(node, "title") ?? ""), attr(node, "src"));
  return undefined;
}

/** An element's words as the page shows them (its text, scripts and styles left out). */
function toWords(node: Element): string {
  return node.children
    .map((child) => (child.type === "text" ? child.value : child.type === "element" && !SKIPPED.has(child.tagName) ? toWords(child) : ""))
    .join(" ");
}

/**
 * The normalized text of one built page (see the rule at the top of this file), under the current rule or an
 * older one; given as its HTML, or as parseHtml's tree of it (a caller reading the page otherwise too parses it once).
 */
export function extractPageText(html: string | Root, rule: TextRule = TEXT_RULE): string {
  // Without scripting, <noscript> content is parsed as markup: what a visitor without JavaScript reads.
  const tree: Root = typeof html === "string" ? parseHtml(html) : html;
  const lines = headLines(select("head", tree));
  const body = select("body", tree);
  const labels: string[] = [];
  const islands: string[] = [];
  const destinations: string[] = [];
  const withDestinations = rule !== "page-text/1";

  let current = "";
  let atInlineEdge = false;
  const flush = () => {
    const text = normalize(current);
    if (text) lines.push(text);
    current = "";
    atInlineEdge = false;
  };
  const append = (text: string) => {
    if (!text) return;
    // Display only: links side by side ("About", "Features") read as words, "Disclosures</a>." stays tight.
    if (atInlineEdge && /[\p{L}\p{N}]$/u.test(current) && /^[\p{L}\p{N}]/u.test(text)) current += " ";
    current += text;
    atInlineEdge = false;
  };

  const visit = (node: Root["children"][number]) => {
    if (node.type === "text") return append(node.value);
    if (node.type !== "element") return;
    const tag = node.tagName;
    if (SKIPPED.has(tag)) return;
    const block = !INLINE.has(tag);
    if (block) flush();
    else atInlineEdge = true;
    for (const name of READABLE_ATTRIBUTES) {
      const text = normalize(attr(node, name) ?? "");
      if (text) labels.push(text);
    }
    if (tag === "input" && /^(submit|button|reset)$/i.test(attr(node, "type") ?? "")) {
      const text = normalize(attr(node, "value") ?? "");
      if (text) labels.push(text);
    }
    const props = tag === "astro-island" ? attr(node, "props") : undefined;
    if (props) islands.push(...islandPropTexts(decodeAstroProps(props)));
    if (withDestinations) {
      const line = destination(node);
      if (line) destinations.push(line);
      if (props) destinations.push(...islandPropLinks(decodeAstroProps(props)).map(({ key, link }) => `[island link] ${key}: ${link}`));
    }
    for (const child of node.children) visit(child);
    for (const child of node.content?.children ?? []) visit(child);
    if (block) flush();
    else atInlineEdge = true;
  };
  if (body) visit(body);
  flush();
  return [...lines, ...labels.map((text) => `[label] ${text}`), ...islands.map((text) => `[island] ${text}`), ...destinations]
    .map((line) => `${line}\n`)
    .join("");
}

/**
 * The approval hash of a page text: SHA-256 (hex) of its characters in order with all white space
 * removed. Spacing and line layout are presentation (HTML collapses white space, and markup decides
 * where lines break), so re-wrapping, wrapping a phrase in a link or moving an element from inline to
 * block changes nothing, while any change of a letter, digit or sign is a new text.
 */
export const pageTextHash = (text: string) => sha256Hex(Buffer.from(text.normalize("NFC").replace(/\s+/gu, ""), "utf8"));

/** A destination line of a rule 2 text, as parts: `[link] FINRA: https://www.finra.org`. */
export interface Destination {
  kind: "link" | "image" | "frame" | "island link";
  /** The link's name, the image's alt, the frame's title, or the island prop's key. */
  name: string;
  target: string;
}

/** The destination lines of a page text (none under rule 1), in order. The name may hold ": ", the target never does. */
export function destinationsOf(text: string): Destination[] {
  return text.split("\n").flatMap((line) => {
    const tag = /^\[(link|image|frame|island link)\] (.*)$/.exec(line);
    const at = tag ? tag[2]!.lastIndexOf(": ") : -1;
    if (!tag || at < 0) return [];
    return [{ kind: tag[1] as Destination["kind"], name: tag[2]!.slice(0, at), target: tag[2]!.slice(at + 2) }];
  });
}
