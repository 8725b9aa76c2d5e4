/**
 * The principal's rendered view: a built page with the words an entry changes highlighted, beside the
 * approved page with the words it removes highlighted. Whole words are compared (jsdiff over the text of
 * <body>, parsed by hast), so the marks agree with the word diff; the markup, styles and layout are the
 * build's own. Scripts are removed: the page is shown as a visitor without JavaScript reads it, in a
 * sandboxed frame. It is a picture of the page, not a second site to walk through: nothing in it takes
 * focus from the keyboard (decision 0029), and nothing in it moves: its animations and transitions are
 * off, so each element shows as it rests (the status dot without its pulse, the hero's drawing settled),
 * however long after the page arrived the principal looks. Without a graphics card (the firm's virtual
 * desktops) every frame of motion is drawn by the processor: the landing page, open and idle in the
 * headless shell, took 1.3–1.9 CPU-s in 10 s while its dot pulsed without end (decision 0065 since
 * stopped it after 4 s), 0.3–0.4 without.
 */
import { diffArrays } from "diff";
import type { Element, Root, RootContent, Text } from "hast";
import { toHtml } from "hast-util-to-html";
import { parseHtml } from "../../lib/html.ts";

const SKIP = new Set(["script", "style", "title", "textarea", "option", "template", "head"]);
export const MARK_CSS =
  // A picture of the page: still. The site's own !important rules (for reduced motion) set durations only, which bring no animation back.
  "*,::before,::after{animation:none!important;transition:none!important}" +
  // Scrolled to (#studio-change) into the middle of the frame, clear of the site's sticky header.
  "mark{scroll-margin-block:40vh}mark.studio-added{background:#bbf7d0;color:#052e16;outline:2px solid #15803d}" +
  "mark.studio-removed{background:#fecaca;color:#450a0a;text-decoration:line-through;outline:2px solid #b91c1c}";

interface Piece {
  node: Text;
  parent: Element | Root;
  tokens: string[];
}

/** Nothing that runs or loads: scripts, and the head's links (icons, preloads). The frame shows the page as built, as read without JavaScript. */
const inert = (node: RootContent) => !(node.type === "element" && (node.tagName === "script" || node.tagName === "link"));
/** What a browser's Tab would stop at (HTML's focusable areas); `tabindex="-1"` keeps each clickable and readable, out of the Tab order. */
const FOCUSABLE = new Set(["a", "area", "button", "input", "select", "textarea", "summary", "iframe", "object", "embed", "audio", "video"]);
function strip(parent: Element | Root) {
  parent.children = parent.children.filter(inert);
  for (const child of parent.children) {
    if (child.type !== "element") continue;
    const props = child.properties;
    if (FOCUSABLE.has(child.tagName) || props.tabIndex !== undefined || props.contentEditable !== undefined) props.tabIndex = -1;
    delete props.autoFocus;
    strip(child);
  }
}

/** Every readable text node of the page with its words and spaces. */
function pieces(tree: Root): Piece[] {
  strip(tree);
  const out: Piece[] = [];
  const walk = (parent: Element | Root) => {
    for (const child of parent.children) {
      if (child.type === "text") out.push({ node: child, parent, tokens: child.value.match(TOKEN) ?? [] });
      else if (child.type === "element" && !SKIP.has(child.tagName)) walk(child);
    }
  };
  walk(tree);
  return out;
}

/** White space, a word (hyphenated ones whole), or one mark of punctuation: as the word diff compares them (words.ts). */
const TOKEN = /\s+|[\p{L}\p{N}][\p{L}\p{N}'’-]*|\S/gu;
const isWord = (token: string) => !/^\s+$/.test(token);

/** Wraps the flagged words of each text node (and the spaces between two flagged words) in a mark. */
function markPieces(all: Piece[], flags: boolean[], kind: "added" | "removed") {
  let w = 0;
  let first = true;
  for (const piece of all) {
    const runs: Array<{ text: string; marked: boolean }> = [];
    piece.tokens.forEach((token, i) => {
      const marked = isWord(token) ? flags[w++]! : Boolean(runs.at(-1)?.marked && piece.tokens.slice(i + 1).find(isWord) && flags[w]);
      const last = runs.at(-1);
      if (last && last.marked === marked) last.text += token;
      else runs.push({ text: token, marked });
    });
    if (!runs.some((r) => r.marked)) continue;
    const replacement: RootContent[] = runs.map((run) => {
      if (!run.marked) return { type: "text", value: run.text };
      const mark: Element = {
        type: "element",
        tagName: "mark",
        properties: { className: [`studio-${kind}`] },
        children: [{ type: "text", value: run.text }],
      };
      if (first) {
        mark.properties.id = "studio-change";
        first = false;
      }
      return mark;
    });
    const index = piece.parent.children.indexOf(piece.node);
    piece.parent.children.splice(index, 1, ...(replacement as Element[]));
  }
}

function withStyle(tree: Root): string {
  const head = tree.children
    .find((c): c is Element => c.type === "element" && c.tagName === "html")
    ?.children.find((c): c is Element => c.type === "element" && c.tagName === "head");
  head?.children.push({ type: "element", tagName: "style", properties: {}, children: [{ type: "text", value: MARK_CSS }] });
  return toHtml(tree);
}

/** One built page as the frames show it, with nothing marked: the page review's picture of a page as published. */
export function picturePage(html: string): string {
  const tree = parseHtml(html);
  strip(tree);
  return withStyle(tree);
}

/** Both pages, each with its side of the change marked (`id="studio-change"` on the first mark). */
export function markedPages(approvedHtml: string, entryHtml: string): { approved: string; entry: string } {
  const [before, after] = [parseHtml(approvedHtml), parseHtml(entryHtml)];
  const [oldPieces, newPieces] = [pieces(before), pieces(after)];
  const words = (all: Piece[]) => all.flatMap((p) => p.tokens.filter(isWord));
  const removed: boolean[] = [];
  const added: boolean[] = [];
  for (const part of diffArrays(words(oldPieces), words(newPieces))) {
    for (let i = 0; i < part.count!; i++) {
      if (!part.added) removed.push(Boolean(part.removed));
      if (!part.removed) added.push(Boolean(part.added));
    }
  }
  markPieces(oldPieces, removed, "removed");
  markPieces(newPieces, added, "added");
  return { approved: withStyle(before), entry: withStyle(after) };
}
