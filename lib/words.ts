/**
 * The principal's word-by-word difference of a page, in plain words: the text the build gate hashes
 * (lib/approval/text.ts), each line named by where a visitor meets it ("Page title", "Popup:
 * Close button", "Screen-reader label") instead of the gate's `[island]` and `[label]` tags, with
 * deletions and insertions both shown, whole words at a time.
 */
import { diffArrays } from "diff";
import { select, selectAll } from "hast-util-select";
import { insertionPoints, parseHtml, type Root } from "./html.ts";
import { decodeAstroProps, islandPropEntries } from "./approval/island-props.ts";
import { destinationsOf, extractPageText } from "./approval/text.ts";

export interface Line {
  /** Where the line is met, when it is not plain page text. */
  where?: string;
  text: string;
}

const ISLANDS: Record<string, string> = {
  UnderDevelopmentPopup: "Under Development popup",
  ContactFormEmbed: "Contact form",
  StatusDot: "Status dot",
  Highlights: "Highlights",
};
const KEYS: Record<string, string> = {
  closeLabel: "Close button",
  buttonLabel: "button",
  progressLabel: "progress bar's name",
  progressSuffix: "progress wording",
  unconfigured: "text without a status page",
  formTitle: "form title",
  placeholderText: "text before the form loads",
  fallbackText: "text when the form fails",
  frameUrl: "form's frame",
  scriptUrl: "form's script",
  statusUrl: "status page",
};
const TAGS: Record<string, string> = {
  "page title": "Page title (browser tab and search results)",
  "page description": "Description in search results",
  "social title": "Title when the page is shared",
  "social description": "Description when the page is shared",
  label: "Screen-reader label",
  link: "Link",
  image: "Image",
  frame: "Frame",
  "island link": "Loaded by a script",
};

/** Lines that say where the page sends the visitor or what it loads ("FINRA: https://www.finra.org"): a change reads "old → new". */
export const DESTINATIONS = new Set(["Link", "Image", "Frame", "Loaded by a script"]);

const words = (name: string) => name.replace(/([a-z\d])([A-Z])/g, "$1 $2").toLowerCase();

/** Where each `[island]` line of a page comes from, in the gate's order. */
function islandPlaces(tree: Root): string[] {
  return selectAll("astro-island", tree).flatMap((island) => {
    const opts = String(island.properties.opts ?? "{}");
    const name = (JSON.parse(opts) as { name?: string }).name ?? "Script";
    const props = island.properties.props;
    if (typeof props !== "string") return [];
    return islandPropEntries(decodeAstroProps(props)).map(({ path }) => {
      const key = [...path].reverse().find((p): p is string => typeof p === "string") ?? "";
      const item = path.find((p): p is number => typeof p === "number");
      return `${ISLANDS[name] ?? words(name)}${item === undefined ? "" : `, item ${item + 1}`}: ${KEYS[key] ?? words(key)}`;
    });
  });
}

/** A built page's text as lines named for a reader. */
export function readableLines(html: string): Line[] {
  // One parse for both readings of the page (a review reads about 25 pages, each three times: cutParts).
  const tree = parseHtml(html);
  const places = islandPlaces(tree);
  let island = 0;
  return extractPageText(tree)
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const tag = /^\[([a-z ]+)\] (.*)$/.exec(line);
      if (!tag) return { text: line };
      const where = tag[1] === "island" ? (places[island++] ?? "Shown by a script") : (TAGS[tag[1]!] ?? tag[1]!);
      // An island's link is named by its prop: "frameUrl: https://…" reads "form's frame: https://…".
      const text = tag[1] === "island link" ? tag[2]!.replace(/^(\w+):/, (_m, key: string) => `${KEYS[key] ?? words(key)}:`) : tag[2]!;
      return { where, text };
    });
}

/**
 * A built page's lines in two parts: the page's own (its head lines: title, description, the shared
 * page's title; and everything inside its one `<main>`: headings, body, contents list, its own links),
 * and the parts every page of the site shares (everything else in `<body>`: the skip link, the cookie
 * banner, the header, the footer, the popup). Cut at the parser's source offsets, so each part is read
 * by the same rule as the whole; undefined when the page has not exactly one `<main>`, or when the two
 * parts together are not the whole page's lines (nothing may fall between them: decision 0044).
 */
export function pageParts(html: string): PageParts | undefined {
  if (!html) return undefined;
  // A review reads the same built pages at every draw (and every approved page, for a new one): each cut once.
  if (partsOf.has(html)) {
    const known = partsOf.get(html);
    partsOf.delete(html);
    partsOf.set(html, known);
    return known;
  }
  const parts = cutParts(html);
  // Shared by every caller: read-only.
  if (parts)
    for (const lines of [parts.own, parts.shared]) {
      for (const line of lines) Object.freeze(line);
      Object.freeze(lines);
    }
  partsOf.set(html, parts && Object.freeze(parts));
  if (partsOf.size > PARTS_KEPT) partsOf.delete(partsOf.keys().next().value!);
  return parts;
}

type PageParts = Readonly<{ own: readonly Line[]; shared: readonly Line[] }>;
/** The last pages cut, by their HTML (the most recently used last): about 25 pages a review at most. */
const partsOf = new Map<string, PageParts | undefined>();
const PARTS_KEPT = 64;

function cutParts(html: string): PageParts | undefined {
  const tree = parseHtml(html);
  const mains = selectAll("main", tree);
  const [start, end] = [mains[0]?.position?.start.offset, mains[0]?.position?.end.offset];
  if (mains.length !== 1 || start === undefined || end === undefined || !select("body", tree)) return undefined;
  let bodyStart: number;
  try {
    ({ bodyStart } = insertionPoints(html, tree));
  } catch {
    return undefined;
  }
  if (start < bodyStart) return undefined;
  const own = readableLines(`${html.slice(0, bodyStart)}${html.slice(start, end)}</body></html>`);
  const shared = readableLines(`<!doctype html><html><head></head><body>${html.slice(bodyStart, start)}${html.slice(end)}`);
  const key = (line: Line) => `${line.where ?? ""}\u0000${line.text}`;
  const whole = readableLines(html).map(key).sort();
  const parts = [...own, ...shared].map(key).sort();
  return whole.length === parts.length && whole.every((line, i) => line === parts[i]) ? { own, shared } : undefined;
}

/** A run of words changed alike; `space`: a space comes before it (none before punctuation). */
export type Part = { text: string; change?: "added" | "removed"; space: boolean };
export interface Row {
  where?: string;
  parts: Part[];
  changed: boolean;
}

type Token = { line: true; where?: string } | { line: false; word: string; space: boolean };
/**
 * Words (hyphenated ones whole: "digital-asset", "256-bit") and each punctuation mark apart, so "loaded." →
 * "loaded just now." changes two words; an address (`https://…`, `mailto:…`, `/privacy-policy`, `#main`)
 * is one word, so a changed link target reads as one change.
 */
const WORD = /\s*(?:(?:[a-z][a-z\d+.-]*:|[/#])[^\s]+|[\p{L}\p{N}][\p{L}\p{N}'’-]*|\S)/gu;
const tokens = (lines: readonly Line[]): Token[] =>
  lines.flatMap((l) => [
    { line: true as const, where: l.where },
    ...[...l.text.matchAll(WORD)].map(([match], i) => ({ line: false as const, word: match.trim(), space: i > 0 && /^\s/.test(match) })),
  ]);
const same = (a: Token, b: Token) => (a.line && b.line ? a.where === b.where : !a.line && !b.line && a.word === b.word);

/** Every line of the new text, and of the old where it was removed, with its words marked. */
export function diffRows(before: readonly Line[], after: readonly Line[]): Row[] {
  const rows: Row[] = [];
  for (const part of diffArrays(tokens(before), tokens(after), { comparator: same })) {
    const change = part.added ? "added" : part.removed ? "removed" : undefined;
    for (const token of part.value) {
      if (token.line) rows.push({ where: token.where, parts: [], changed: change !== undefined });
      else {
        const row = rows.at(-1) ?? (rows.push({ parts: [], changed: false }), rows.at(-1)!);
        const last = row.parts.at(-1);
        // Neighbouring words changed alike read as one change ("digital asset" → "digital-asset").
        if (last && last.change === change) last.text += `${token.space ? " " : ""}${token.word}`;
        else row.parts.push({ text: token.word, space: token.space, ...(change ? { change } : {}) });
        if (change) row.changed = true;
      }
    }
  }
  return rows;
}

/** The changed rows with one row of context each side; runs left out are counted (`skipped`). */
export function changedWithContext(rows: Row[]): Array<Row | { skipped: number }> {
  const keep = new Set<number>();
  rows.forEach((row, i) => row.changed && [i - 1, i, i + 1].forEach((j) => j >= 0 && j < rows.length && keep.add(j)));
  const out: Array<Row | { skipped: number }> = [];
  let skipped = 0;
  rows.forEach((row, i) => {
    if (!keep.has(i)) return void skipped++;
    if (skipped) out.push({ skipped });
    skipped = 0;
    out.push(row);
  });
  if (skipped) out.push({ skipped });
  return out;
}

/**
 * The destinations of a page that changed between two texts, one line each, named as a reader says them:
 * "FINRA: https://www.finra.org → https://finra-brokercheck.example-phish.net", "Image Chart: added,
 * /images/chart.png", "Link SEC: removed (it went to https://www.sec.gov)". Links are paired by their name
 * and order, so a moved address is a change even where every word is the same.
 */
export function destinationChanges(before: string, after: string): string[] {
  const grouped = (text: string) => {
    const groups = new Map<string, string[]>();
    for (const { kind, name, target } of destinationsOf(text)) {
      const key = `${kind === "link" ? "" : `${TAGS[kind] ?? kind} `}${name}`;
      groups.set(key, [...(groups.get(key) ?? []), target]);
    }
    return groups;
  };
  const [was, is] = [grouped(before), grouped(after)];
  const lines: string[] = [];
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const [old, now] = [was.get(key) ?? [], is.get(key) ?? []];
    for (let i = 0; i < Math.max(old.length, now.length); i++) {
      if (old[i] === now[i]) continue;
      if (old[i] === undefined) lines.push(`${key}: added, ${now[i]}`);
      else if (now[i] === undefined) lines.push(`${key}: removed (it went to ${old[i]})`);
      else lines.push(`${key}: ${old[i]} → ${now[i]}`);
    }
  }
  return lines;
}
