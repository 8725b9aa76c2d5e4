/**
 * Every built page is read through one parser: hast (parse5, the HTML standard's algorithm), with
 * scripting off so that `<noscript>` content is markup, as a visitor without JavaScript gets it. Edits
 * are made at the parser's source offsets, so every byte Astro wrote elsewhere (and so every CSP hash)
 * stays as it was.
 */
import type { Element, Root, Text } from "hast";
import { fromHtml } from "hast-util-from-html";
import { select, selectAll } from "hast-util-select";

export type { Element, Root };

export const parseHtml = (html: string): Root => fromHtml(html);

/** The exact source text of an element's children: for <script> and <style>, the bytes a browser hashes. */
export const rawText = (element: Element) =>
  element.children
    .filter((child): child is Text => child.type === "text")
    .map((child) => child.value)
    .join("");

/** Script types the browser runs (or reads as code: import maps, speculation rules), so that CSP applies to them. */
const CODE_TYPES =
  /^(?:|module|importmap|speculationrules|(?:text|application)\/(?:x-)?(?:javascript|ecmascript)|text\/(?:jscript|livescript))$/i;
const runs = (script: Element) => CODE_TYPES.test(String(script.properties.type ?? "").trim());

/**
 * Inline <script> (no src) and <style> bodies, as the browser hashes them for the CSP. Data blocks
 * (JSON-LD, any type the browser does not run) are never executed, so CSP does not apply to them and
 * they need no hash.
 */
export function inlineBlocks(tree: Root): { scripts: string[]; styles: string[] } {
  return {
    scripts: selectAll("script:not([src])", tree).filter(runs).map(rawText),
    styles: selectAll("style", tree).map(rawText),
  };
}

/**
 * The CSP `<meta>` Astro writes into a page's head (`security.csp`), taken out: its `script-src` hashes
 * (the inline scripts Astro and the project declared) and the page without it. A page without one
 * allows no inline script.
 */
export function takeCspMeta(html: string): { html: string; scriptHashes: Set<string> } {
  const meta = select('head meta[http-equiv="content-security-policy" i]', parseHtml(html));
  const [start, end] = [meta && startOf(meta), meta && endOf(meta)];
  if (!meta || start === undefined || end === undefined) return { html, scriptHashes: new Set() };
  const scriptSrc = String(meta.properties.content ?? "")
    .split(";")
    .map((directive) => directive.trim().split(/\s+/))
    .find(([name]) => name === "script-src");
  const hashes = (scriptSrc ?? []).filter((source) => /^'sha(256|384|512)-/.test(source)).map((source) => source.slice(1, -1));
  return { html: html.slice(0, start) + html.slice(end), scriptHashes: new Set(hashes) };
}

const startOf = (node: Element) => node.position?.start.offset;
const endOf = (node: Element) => node.position?.end.offset;

/** Where the element's start tag ends: its first child's start, or its end tag's start. */
function afterStartTag(html: string, element: Element): number {
  const first = element.children[0]?.position?.start.offset;
  if (first !== undefined) return first;
  const end = endOf(element);
  if (end === undefined) throw new Error(`<${element.tagName}> has no source position`);
  return html.lastIndexOf("<", end - 1);
}

/** The offsets of <head>'s end tag and of the end of <body>'s start tag, for inserting into each. */
export function insertionPoints(html: string, tree = parseHtml(html)): { headEnd: number; bodyStart: number } {
  const head = select("head", tree);
  const body = select("body", tree);
  const headEnd = head && endOf(head) !== undefined ? html.lastIndexOf("</head", endOf(head)) : -1;
  if (!head || !body || headEnd < 0 || startOf(body) === undefined) throw new Error("the page has no <head> and <body> written out");
  return { headEnd, bodyStart: afterStartTag(html, body) };
}

/**
 * Astro writes its island style (`astro-island{display:contents}`) where the first island appears, inside
 * <body>, where HTML does not permit <style>. Moving every <style> of the body into the head keeps the page
 * valid (html-validate) and renders the same; the bytes, and so the CSP hashes, do not change.
 */
export function hoistBodyStyles(html: string): string {
  const tree = parseHtml(html);
  const styles = selectAll("body style", tree)
    .map((style) => [startOf(style), endOf(style)] as const)
    .filter((range): range is readonly [number, number] => range[0] !== undefined && range[1] !== undefined);
  if (styles.length === 0) return html;
  const { headEnd } = insertionPoints(html, tree);
  let body = html.slice(headEnd);
  for (const [start, end] of [...styles].reverse()) body = body.slice(0, start - headEnd) + body.slice(end - headEnd);
  return html.slice(0, headEnd) + styles.map(([start, end]) => html.slice(start, end)).join("") + body;
}
