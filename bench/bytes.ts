/**
 * Byte budgets over dist/, with brotli at the quality the build ships (11): deterministic, so they are
 * checked in `npm test` as well as in `npm run bench`.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
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

/** Static and dynamic imports of a built chunk (relative specifiers). */
export function importsOf(code: string): { staticImports: string[]; dynamicImports: string[] } {
  // The minifier may quote specifiers with ", ' or `.
  const staticImports = [...code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'`](\.\.?\/[^"'`]+)["'`]/g)].map((m) => m[1]!);
  const exported = [...code.matchAll(/export\s*[\w*{}\s,$]+from\s*["'`](\.\.?\/[^"'`]+)["'`]/g)].map((m) => m[1]!);
  const dynamicImports = [...code.matchAll(/import\(\s*["'`](\.\.?\/[^"'`]+)["'`]\s*\)/g)].map((m) => m[1]!);
  return { staticImports: [...staticImports, ...exported], dynamicImports };
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
  for (const [tag] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const onIntent = /\sclient="when"/.test(tag) && /&quot;value&quot;:&quot;intent&quot;/.test(tag);
    for (const m of tag.matchAll(/(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) {
      if (!m[1]) continue;
      if (onIntent) lazy.add(join(dist, m[1]));
      else entries.add(m[1]);
    }
  }
  for (const m of html.matchAll(/<script[^>]*\bsrc="(\/[^"]+)"/g)) if (m[1]) entries.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="(\/[^"]+)"/g)) if (m[1]) entries.add(m[1]);
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
  const head = html.split("</head>")[0] ?? "";
  const blockingScripts = [...head.matchAll(/<script\b[^>]*\bsrc=[^>]*>/g)].filter(
    (m) => !/\b(defer|async|type="module")\b/.test(m[0]),
  ).length;
  // A print stylesheet never blocks rendering on screen.
  const externalCss = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].filter((m) => !/\bmedia="print"/.test(m[0])).length;
  const assets = [...html.matchAll(/<link[^>]*rel="(?:icon|apple-touch-icon|manifest)"[^>]*href="(\/[^"]+)"/g)]
    .map((m) => join(dist, m[1]!))
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
