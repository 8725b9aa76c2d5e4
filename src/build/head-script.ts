import type { AstroIntegration } from "astro";
import { buildSync } from "esbuild";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Every page's script, and the landing page's (which adds the popup and the tooltips' Escape). */
const ENTRIES = {
  page: fileURLToPath(new URL("../client/head/index.ts", import.meta.url)),
  landing: fileURLToPath(new URL("../client/head/landing.ts", import.meta.url)),
};
export type HeadScriptEntry = keyof typeof ENTRIES;
const SRC = fileURLToPath(new URL("..", import.meta.url));
const VIRTUAL_ID = "virtual:head-script";

/**
 * The inline <head> script (src/client/head/), bundled and minified: it travels in every page's first
 * round trip, and the CSP allows it by its hash (computed from the built pages).
 */
export function bundleHeadScript(analyticsScriptUrl: string, entry: HeadScriptEntry = "page"): { code: string; inputs: string[] } {
  const { outputFiles, metafile } = buildSync({
    entryPoints: [ENTRIES[entry]],
    bundle: true,
    write: false,
    metafile: true,
    minify: true,
    format: "iife",
    target: "es2020",
    legalComments: "none",
    // Strict mode comes with nothing the script relies on, and "use strict" would cost bytes in every page.
    tsconfigRaw: {},
    alias: { "@": SRC },
    define: { __ANALYTICS_SCRIPT_URL__: JSON.stringify(analyticsScriptUrl) },
  });
  return { code: outputFiles[0]!.text.trim(), inputs: Object.keys(metafile.inputs) };
}

/**
 * Pages import the bundled scripts from `virtual:head-script`: `page` (every page) and `landing`. Bundled here, in Node, because the
 * layout itself is bundled by Vite and cannot find the entry's file from where its chunk lands.
 */
export function headScript(analyticsScriptUrl: string): AstroIntegration {
  return {
    name: "head-script",
    hooks: {
      "astro:config:setup": ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: "head-script",
                resolveId: (id: string) => (id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : undefined),
                load(id: string) {
                  if (id !== `\0${VIRTUAL_ID}`) return undefined;
                  const page = bundleHeadScript(analyticsScriptUrl, "page");
                  const landing = bundleHeadScript(analyticsScriptUrl, "landing");
                  for (const input of landing.inputs) this.addWatchFile(resolve(input));
                  return `export const page = ${JSON.stringify(page.code)};\nexport const landing = ${JSON.stringify(landing.code)};`;
                },
              },
            ],
          },
        });
      },
    },
  };
}
