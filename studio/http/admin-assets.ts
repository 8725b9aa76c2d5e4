/**
 * The admin page and what it loads: Decap CMS's prebuilt bundle and chunks from node_modules (nothing
 * from a CDN), the studio's own module (studio/admin/, bundled by esbuild when the studio starts) and
 * the styles of the studio's bar, notices and pages.
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { DOCUMENT_COLLECTIONS, LANDING_FILES } from "../../src/content/schemas/files.ts";

/** Where Decap's prebuilt bundle and its chunks are. */
export const decapDist = () => join(dirname(createRequire(import.meta.url).resolve("decap-cms/package.json")), "dist");

/** The files of Decap's bundle the admin page may load (the bundle, its chunks, styles and wasm; never source maps). */
export const decapAssets = () => new Set(readdirSync(decapDist()).filter((name) => /^[\w.-]+\.(?:js|css|wasm)$/.test(name)));

export const ADMIN_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Content studio</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/admin/studio-admin.css" />
  </head>
  <body>
    <script src="/admin/decap-cms.js"></script>
    <script src="/admin/studio.js"></script>
  </body>
</html>
`;

export const ADMIN_CSS = `#studio-bar{position:fixed;right:1rem;bottom:1rem;z-index:400;display:flex;gap:.75rem;align-items:center;background:#0f172a;color:#fff;padding:.5rem 1rem;border-radius:.25rem;font:600 14px system-ui,sans-serif}
#studio-bar a{color:#bae6fd}#studio-bar form{margin:0}#studio-bar button{font:inherit;background:transparent;color:#bae6fd;border:1px solid #bae6fd;border-radius:.25rem;padding:.15rem .6rem;cursor:pointer}
#studio-notices{position:fixed;right:1rem;bottom:4rem;z-index:400;display:flex;flex-direction:column;gap:.5rem;max-width:min(30rem,calc(100vw - 2rem))}
.studio-notice{font:14px/1.5 system-ui,sans-serif;padding:.75rem 1rem;border-radius:.25rem;border:2px solid;box-shadow:0 4px 12px rgb(0 0 0/.2)}
.studio-notice p{margin:0 0 .5rem}.studio-notice a{margin-right:1rem;font-weight:600;color:inherit;text-decoration:underline}.studio-notice button{font:inherit;cursor:pointer}
.studio-notice-error{background:#fef2f2;border-color:#b91c1c;color:#7f1d1d}.studio-notice-info{background:#eff6ff;border-color:#1d4ed8;color:#1e3a8a}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}`;

/** The admin module, bundled once per studio (esbuild, for the browser). */
export async function adminModule(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../admin/main.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    define: { STUDIO_TEMPLATES: JSON.stringify([...Object.keys(LANDING_FILES), ...Object.keys(DOCUMENT_COLLECTIONS)]) },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
