/**
 * Byte budgets over dist/, with brotli at the quality the build ships (11): deterministic, so they are
 * checked in `npm test` as well as in `npm run bench`.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { init, parse } from "es-module-lexer";
import { selectAll } from "hast-util-select";
import { parseHtml } from "../lib/html.ts";
import { byteBudgets } from "./budgets.ts";

export const brotli = (body: Buffer | string) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

export interface PageBytes {
  page: string;
  htmlBrotli: number;
  /** JavaScript the page loads without any interaction (entry chunks and their static imports). */
  jsBrotli: number;
  jsFiles: string[];
  /** Code loaded only on intent (client:when="intent" islands, dynamic imports such as Radix), reported separately. */
  lazyJsBrotli: number;
  /** External screen stylesheets (render-blocking); the build inlines CSS, so this should be 0. */
  externalCss: number;
  /** Scripts that block first paint (classic scripts with src in <head> without defer/async). */
  blockingScripts: number;
  otherAssetsBrotli: number;
}

await init;

/** Static imports and re-exports, and dynamic imports, of a built chunk (relative specifiers), by es-module-lexer. */
export function importsOf(code: string): { staticImports: string[]; dynamicImports: string[] } {
  const [imports] = parse(code);
  const relative = imports.filter((i) => i.n !== undefined && /^\.\.?\//.test(i.n));
  // d: -1 for a static import or re-export, the position of `import(` for a dynamic one (-2: import.meta).
  return {
    staticImports: relative.filter((i) => i.d === -1).map((i) => i.n!),
    dynamicImports: relative.filter((i) => i.d >= 0).map((i) => i.n!),
  };
}

function resolveChunk(from: string, specifier: string): string {
  return new URL(specifier, `file://${from}`).pathname;
}

/**
 * Every file a page's islands load without interaction, following static imports. Islands that hydrate
 * on intent (client:when="intent") and dynamic imports (Radix) are lazy: loaded only when the visitor acts.
 */
export function scriptGraph(dist: string, html: string) {
  const entries = new Set<string>();
  const lazy = new Set<string>();
  const tree = parseHtml(html);
  for (const island of selectAll("astro-island", tree)) {
    const { client, opts } = island.properties;
    const onIntent = client === "when" && (JSON.parse(String(opts ?? "{}")) as { value?: unknown }).value === "intent";
    for (const name of ["component-url", "renderer-url", "before-hydration-url"]) {
      const url = island.properties[name];
      if (typeof url !== "string" || !url) continue;
      if (onIntent) lazy.add(join(dist, url));
      else entries.add(url);
    }
  }
  for (const script of selectAll('script[src^="/"]', tree)) entries.add(String(script.properties.src));
  for (const link of selectAll('link[rel~="modulepreload"][href^="/"]', tree)) entries.add(String(link.properties.href));
  const eager = new Set<string>();
  const queue = [...entries].map((url) => join(dist, url));
  while (queue.length) {
    const file = queue.pop()!;
    if (eager.has(file) || !existsSync(file)) continue;
    eager.add(file);
    const { staticImports, dynamicImports } = importsOf(readFileSync(file, "utf8"));
    for (const s of staticImports) queue.push(resolveChunk(file, s));
    for (const d of dynamicImports) lazy.add(resolveChunk(file, d));
  }
  // Lazy chunks and what they import that the page has not loaded yet.
  const lazyAll = new Set<string>();
  const lazyQueue = [...lazy];
  while (lazyQueue.length) {
    const file = lazyQueue.pop()!;
    if (eager.has(file) || lazyAll.has(file) || !existsSync(file)) continue;
    lazyAll.add(file);
    const { staticImports, dynamicImports } = importsOf(readFileSync(file, "utf8"));
    for (const s of [...staticImports, ...dynamicImports]) lazyQueue.push(resolveChunk(file, s));
  }
  return { eager: [...eager], lazy: [...lazyAll] };
}

const size = (file: string) => brotli(readFileSync(file));

export function measurePage(dist: string, htmlFile: string): PageBytes {
  const html = readFileSync(join(dist, htmlFile), "utf8");
  const { eager, lazy } = scriptGraph(dist, html);
  const tree = parseHtml(html);
  // Scripts that block first paint: classic scripts with src in <head>, neither deferred nor async.
  const blockingScripts = selectAll("head script[src]:not([defer]):not([async]):not([type=module])", tree).length;
  // A print stylesheet never blocks rendering on screen.
  const externalCss = selectAll('link[rel~="stylesheet"]:not([media="print"])', tree).length;
  const assets = selectAll('link[rel~="icon"][href^="/"], link[rel~="apple-touch-icon"][href^="/"], link[rel~="manifest"][href^="/"]', tree)
    .map((link) => join(dist, String(link.properties.href)))
    .filter((f) => existsSync(f));
  return {
    page: htmlFile,
    htmlBrotli: brotli(html),
    jsBrotli: eager.reduce((sum, f) => sum + size(f), 0),
    jsFiles: eager.map((f) => f.slice(dist.length)),
    lazyJsBrotli: lazy.reduce((sum, f) => sum + size(f), 0),
    externalCss,
    blockingScripts,
    otherAssetsBrotli: assets.reduce((sum, f) => sum + size(f), 0),
  };
}

/** Each island's own code: its entry chunk plus chunks only islands import (not React's runtime). */
export function islandSizes(dist: string): Array<{ file: string; brotli: number }> {
  const dir = join(dist, "_astro");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".js") && !/^(react|client|rolldown-runtime)\./.test(f) && !f.startsWith("dist."))
    .map((f) => ({ file: f, brotli: size(join(dir, f)) }));
}

export interface BudgetResult {
  name: string;
  value: number;
  limit: number;
  ok: boolean;
}

export function checkByteBudgets(dist: string): { pages: PageBytes[]; results: BudgetResult[] } {
  const htmlFiles = readdirSync(dist).filter((f) => f.endsWith(".html"));
  const pages = htmlFiles.map((f) => measurePage(dist, f));
  const results: BudgetResult[] = [];
  const add = (name: string, value: number, limit: number) => results.push({ name, value, limit, ok: value <= limit });
  for (const p of pages) {
    add(`${p.page}: HTML (brotli)`, p.htmlBrotli, byteBudgets.htmlBrotli);
    add(`${p.page}: JavaScript loaded up front (brotli)`, p.jsBrotli, byteBudgets.jsPerPageBrotli);
    add(`${p.page}: render-blocking stylesheets and scripts`, p.externalCss + p.blockingScripts, 0);
  }
  for (const island of islandSizes(dist)) add(`_astro/${island.file}: island code (brotli)`, island.brotli, byteBudgets.islandOwnBrotli);
  const landing = pages.find((p) => p.page === "index.html");
  if (landing)
    add(
      "index.html: transfer before the contact form (brotli)",
      landing.htmlBrotli + landing.jsBrotli + landing.otherAssetsBrotli,
      byteBudgets.landingTransferBrotli,
    );
  const fonts = readdirSync(dist, { recursive: true })
    .map(String)
    .filter((f) => /\.(woff2?|ttf|otf)$/.test(f));
  add("fonts shipped (count)", fonts.length, 1);
  for (const font of fonts) add(`${font}: font bytes`, readFileSync(join(dist, font)).length, byteBudgets.fontBytes);
  return { pages, results };
}
