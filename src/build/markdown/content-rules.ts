/**
 * What an editor's Markdown may hold, so that what a principal approves is everything a visitor gets:
 * no raw HTML (an element, an inline handler, a comment that hides words), and links and images only
 * to safe places. One rule for the build (the `remarkContentRules` plugin in the site's processor), the
 * content studio's preview (the same processor) and the studio's check before a save
 * (`markdownFileProblems` on the file it is about to write). Each problem is one sentence naming the
 * file, the line and what is refused. A construct Markdown cannot express is added by a developer as a
 * named, reviewed component, never as HTML in content (docs/decisions/0041-content-is-markdown-only.md).
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import type { Element, Root as HastRoot } from "hast";
import { fromHtml } from "hast-util-from-html";
import type { Nodes, Root } from "mdast";
import { find, html as htmlSchema } from "property-information";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import type { VFile } from "vfile";

/** A link's destination a visitor may be sent to: https, e-mail, telephone, or the site's own path or anchor. */
const SAFE_LINK = /^(?:https:\/\/[^\s/]|mailto:|tel:|\/(?!\/)|#)/i;
/** An image's source: the site's own files only (the policy's `img-src 'self'`; nothing third-party loads before consent). */
const SAFE_IMAGE = /^\/(?!\/)/;

const LINK_RULE = "a link may go only to an https:, mailto: or tel: address or to one of the site's own paths (/privacy-policy)";
const IMAGE_RULE = "an image may come only from the site's own files (a path such as /images/chart.png)";

const textOf = (node: Nodes): string =>
  "value" in node && typeof node.value === "string" && node.type !== "html"
    ? node.value
    : "children" in node
      ? node.children.map((child) => textOf(child as Nodes)).join("")
      : "";

const quoted = (text: string) => {
  const words = text.replace(/\s+/g, " ").trim();
  return `"${words.length > 60 ? `${words.slice(0, 57)}…` : words}"`;
};

/** Every element and comment of a piece of HTML, in order. */
function partsOf(tree: HastRoot): Array<Element | { type: "comment" }> {
  const parts: Array<Element | { type: "comment" }> = [];
  visit(tree, (node) => {
    if (node.type === "element" || node.type === "comment") parts.push(node as Element | { type: "comment" });
  });
  return parts;
}

const COMMENT = "an HTML comment (<!-- … -->), which hides its words from the page but not from the file";

/** One element as an editor would name it: "a <script> element", "an <img> element with the inline handler onerror". */
function elementWords(element: Element): string {
  const handlers = Object.keys(element.properties)
    .map((property) => find(htmlSchema, property).attribute)
    .filter((attribute) => /^on[a-z]/i.test(attribute));
  const article = /^[aeiou]/i.test(element.tagName) ? "an" : "a";
  const handler = handlers.length ? ` with the inline handler${handlers.length > 1 ? "s" : ""} ${handlers.join(", ")}` : "";
  return `${article} <${element.tagName}> element${handler}`;
}

/**
 * What a piece of raw HTML is, as an editor would name it: "raw HTML (a <script> element)", "raw HTML (an
 * <img> element with the inline handler onerror)", every element of an HTML block named once.
 */
export function describeHtml(value: string): string {
  const text = value.trim();
  const parts = partsOf(fromHtml(text, { fragment: true }));
  const elements = [...new Set(parts.filter((p): p is Element => p.type === "element").map(elementWords))];
  const comment = parts.some((p) => p.type === "comment");
  if (elements.length === 0) {
    if (comment) return COMMENT;
    const end = /^<\/\s*([a-z][\w:-]*)/i.exec(text)?.[1]?.toLowerCase();
    return end ? `raw HTML (${/^[aeiou]/i.test(end) ? "an" : "a"} <${end}> end tag)` : `raw HTML (${quoted(text)})`;
  }
  return `raw HTML (${elements.join(", ")}${comment ? ", and an HTML comment" : ""})`;
}

export interface ContentProblem {
  /** The line in the file (1-based). */
  line: number;
  /** What is refused and why, without the file and line. */
  problem: string;
}

/** Every problem of a Markdown tree; `lineOffset`: lines of the file before the tree's first line (its front matter). */
export function contentProblems(tree: Root, lineOffset = 0): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const at = (node: Nodes) => (node.position?.start.line ?? 1) + lineOffset;
  // Markdown splits inline HTML at each tag: "<b>x</b>" is two nodes, and the end tag adds nothing to say.
  const opened = new Set<string>();
  visit(tree, (node: Nodes) => {
    if (node.type === "html") {
      const end = /^<\/\s*([a-z][\w:-]*)\s*>$/i.exec(node.value.trim())?.[1]?.toLowerCase();
      if (end && opened.has(end)) return;
      const start = /^<([a-z][\w:-]*)/i.exec(node.value.trim())?.[1]?.toLowerCase();
      if (start) opened.add(start);
      const what = describeHtml(node.value);
      problems.push({
        line: at(node),
        problem:
          what === COMMENT
            ? `the text holds ${what}; remove it`
            : `the text holds ${what}, which the site does not publish; write it in Markdown, or ask a developer for a named component`,
      });
    } else if ((node.type === "link" || node.type === "definition") && !SAFE_LINK.test(node.url.trim())) {
      const name =
        node.type === "link" ? `the link ${quoted(textOf(node) || node.url)}` : `the link definition [${node.label ?? node.identifier}]`;
      problems.push({ line: at(node), problem: `${name} goes to ${quoted(node.url)}; ${LINK_RULE}` });
    } else if (node.type === "image" && !SAFE_IMAGE.test(node.url.trim())) {
      problems.push({ line: at(node), problem: `the image ${quoted(node.alt || node.url)} comes from ${quoted(node.url)}; ${IMAGE_RULE}` });
    }
  });
  return problems;
}

/** One sentence per problem, naming the file and the line. */
export const problemSentences = (file: string, problems: ContentProblem[]) =>
  problems.map(({ line, problem }) => `${file}, line ${line}: ${problem}.`);

/** The front matter block at the top of a Markdown file, as Astro reads it: the body starts after it. */
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/;

/** The problems of a whole Markdown file (front matter and body), as the studio checks it before a save. */
export function markdownFileProblems(source: string, file: string): string[] {
  const front = FRONT_MATTER.exec(source)?.[0] ?? "";
  const offset = front.split("\n").length - 1;
  const tree = unified().use(remarkParse).use(remarkGfm).parse(source.slice(front.length));
  return problemSentences(file, contentProblems(tree, offset));
}

/**
 * The build's and the preview's check, first among the site processor's remark plugins: a file with
 * any problem stops the build with one line per problem. Lines are counted in the file when it is on
 * disk (the build), else in the text (the studio's preview).
 */
export function remarkContentRules() {
  return (tree: Root, file: VFile) => {
    let name = "the text";
    let offset = 0;
    if (file.path && existsSync(file.path)) {
      const source = readFileSync(file.path, "utf8");
      const at = source.indexOf(String(file.value));
      if (at >= 0) offset = source.slice(0, at).split("\n").length - 1;
      name = relative(file.cwd, file.path).replace(/\\/g, "/");
    } else if (file.path) name = `${file.path.replace(/^\/+/, "")} (its text)`;
    const problems = contentProblems(tree, offset);
    if (problems.length > 0) throw new Error(problemSentences(name, problems).join("\n"));
  };
}
