/**
 * Every inline script and style of the build is allowed by a hash in the policy, and every hash in
 * the policy belongs to something in the build. The HTML is read with parse5's own tree (the HTML
 * standard's tokenizer, as a browser reads it) and walked here, apart from the build's hast helpers
 * (lib/html.ts) that write the hashes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "parse5";
import { describe, expect, it } from "vitest";
import { sha256Base64 } from "../../lib/hash.ts";
import { parseHeadersFile } from "../../src/shared/security-headers.ts";
import { dist, requireBuild } from "./support.ts";

requireBuild();

/** A node of parse5's default tree, as far as this test reads it. */
interface HtmlNode {
  tagName?: string;
  value?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: HtmlNode[];
  content?: HtmlNode;
}
function* walk(node: HtmlNode): Generator<HtmlNode> {
  yield node;
  for (const child of node.childNodes ?? []) yield* walk(child);
  if (node.content) yield* walk(node.content);
}

const pages = readdirSync(dist).filter((f) => f.endsWith(".html"));
const hash = (text: string) => `sha256-${sha256Base64(text)}`;
const sources = (csp: string, name: string) =>
  (csp.split(/;\s*/).find((d) => d.split(" ")[0] === name) ?? "")
    .split(" ")
    .slice(1)
    .filter((s) => s.startsWith("'sha"))
    .map((s) => s.slice(1, -1));

const csp = parseHeadersFile(readFileSync(join(dist, "_headers"), "utf8"))["Content-Security-Policy"] ?? "";
const scriptHashes = sources(csp, "script-src");
const styleHashes = sources(csp, "style-src");

const inline = pages.map((page) => {
  const scripts: string[] = [];
  const styles: string[] = [];
  const handlers: string[] = [];
  const styleAttributes: string[] = [];
  for (const node of walk(parse(readFileSync(join(dist, page), "utf8")) as unknown as HtmlNode)) {
    const attrs = node.attrs ?? [];
    const text = (node.childNodes ?? []).map((c) => c.value ?? "").join("");
    // A data block (JSON-LD) is not executed, so CSP does not govern it.
    const dataBlock = attrs.some((a) => a.name === "type" && a.value === "application/ld+json");
    if (node.tagName === "script" && !attrs.some((a) => a.name === "src") && !dataBlock) scripts.push(text);
    if (node.tagName === "style") styles.push(text);
    for (const a of attrs) {
      if (/^on/i.test(a.name)) handlers.push(`${node.tagName} ${a.name}`);
      if (a.name === "style") styleAttributes.push(`${node.tagName} style="${a.value}"`);
      if (/^\s*javascript:/i.test(a.value)) handlers.push(`${node.tagName} ${a.name}=javascript:`);
    }
  }
  return { page, scripts, styles, handlers, styleAttributes };
});

describe("inline code and the CSP hashes", () => {
  it("the build has pages with inline scripts and styles to check", () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        "index.html",
        "404.html",
        "terms-of-service.html",
        "privacy-policy.html",
        "risk-disclosures.html",
        "cookie-policy.html",
      ]),
    );
    expect(inline.flatMap((p) => p.scripts).length).toBeGreaterThan(0);
    expect(inline.flatMap((p) => p.styles).length).toBeGreaterThan(0);
  });

  it.each(inline)("$page: every inline <script> and <style> matches a hash in the policy", ({ scripts, styles }) => {
    for (const script of scripts) expect(scriptHashes, script.slice(0, 80)).toContain(hash(script));
    for (const style of styles) expect(styleHashes, style.slice(0, 80)).toContain(hash(style));
  });

  it.each(inline)(
    "$page: no inline event handlers, javascript: URLs or style attributes (the policy would block them)",
    ({ handlers, styleAttributes }) => {
      expect(handlers).toEqual([]);
      expect(styleAttributes).toEqual([]);
    },
  );

  it("every hash in the policy belongs to an inline block of the build", () => {
    const built = new Set(inline.flatMap((p) => [...p.scripts, ...p.styles].map(hash)));
    expect(scriptHashes.length).toBeGreaterThan(0);
    for (const h of [...scriptHashes, ...styleHashes]) expect(built, h).toContain(h);
  });
});
