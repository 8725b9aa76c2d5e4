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
import { DOCUMENT_COLLECTIONS, LANDING_FILES, REQUIRED_DISCLOSURES } from "../../src/content/schemas/files.ts";

/** Where Decap's prebuilt bundle and its chunks are. */
export const decapDist = () => join(dirname(createRequire(import.meta.url).resolve("decap-cms/package.json")), "dist");

/** The files of Decap's bundle the admin page may load (the bundle, its chunks, styles and wasm; never source maps). */
export const decapAssets = () => new Set(readdirSync(decapDist()).filter((name) => /^[\w.-]+\.(?:js|css|wasm)$/.test(name)));

/** What the admin page names, each by its hash: a browser keeps them until they change. */
export interface AdminPaths {
  /** Decap's bundle; its chunks are asked for beside it (webpack takes its public path from this script's address). */
  decap: string;
  module: string;
  css: string;
}

export const adminHtml = (paths: AdminPaths) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Content studio</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${paths.css}" />
  </head>
  <body>
    <script src="${paths.decap}"></script>
    <script src="${paths.module}"></script>
  </body>
</html>
`;

/**
 * The dock at the foot of the window (the notices, then the bar) takes its own room: Decap's editor fills
 * the window (absolute, height 100%), so it is made to end above the dock (`--studio-dock`, set by
 * studio/admin/notices.ts); other screens get the dock's height as padding. Nothing covers the preview.
 *
 * Narrower than Decap's editor (it sets min-width: 800px on the editor and its toolbar, and lays the
 * form beside the preview in panes that each scroll), the editor is laid out as a page instead: the
 * toolbar wraps (the way back and the status first, then Save and the entry's actions), the form takes
 * the width and scrolls with the window, above the dock; the preview pane and its switches are left out
 * (there is no room beside the form); a field scrolled to by focus stops above the dock (scroll-padding).
 * The toolbar stays at the top while the window has the height for it; at 400 % zoom (320 × 256) it
 * scrolls away with the page, and Save is reached by Shift+Tab or by scrolling back up.
 * studio/README.md names what Decap's own styles still do there.
 *
 * On a short window (under 480 px high: 400 % zoom, a phone held sideways) each notice is one line, its
 * text cut short and its link left out, until its Details button opens it (aria-expanded, set by
 * studio/admin/notices.ts): a whole notice there took the window from 35 px down and covered Save.
 * The button is shown there only; a taller window shows every notice whole, as before.
 */
export const ADMIN_CSS = `body{padding-bottom:var(--studio-dock,0px)}
html{scroll-padding-bottom:calc(var(--studio-dock,0px) + .5rem)}
[class*="-EditorContainer"]:has(> [class*="-Editor "]){height:calc(100% - var(--studio-dock,0px))}
#studio-dock{position:fixed;left:0;right:0;bottom:0;z-index:400;font:14px/1.5 system-ui,sans-serif}
#studio-bar{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.25rem .75rem;align-items:center;background:#0f172a;color:#fff;padding:.4rem 1rem;font-weight:600}
#studio-bar a{color:#bae6fd}#studio-bar form{margin:0}#studio-bar button{font:inherit;background:transparent;color:#bae6fd;border:1px solid #bae6fd;border-radius:.25rem;padding:.15rem .6rem;cursor:pointer}
#studio-bar :focus-visible{outline-color:#bae6fd}
.studio-notice{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;padding:.4rem 1rem;border-top:2px solid}
.studio-notice p{margin:0;flex:1 1 24rem}.studio-notice a{font-weight:600;color:inherit;text-decoration:underline}.studio-notice button{font:inherit;cursor:pointer}
.studio-notice-error{background:#fef2f2;border-color:#b91c1c;color:#7f1d1d}.studio-notice-info{background:#eff6ff;border-color:#1d4ed8;color:#1e3a8a}
.studio-notice-details{display:none}
@media (max-height:479.98px){
.studio-notice{padding:.25rem .5rem;column-gap:.5rem}
.studio-notice-details{display:inline-flex;align-items:center;gap:.4em}
.studio-notice-details::after{content:"";width:.4em;height:.4em;border:solid currentColor;border-width:0 2px 2px 0;transform:translateY(-.15em) rotate(45deg)}
.studio-notice-details[aria-expanded="true"]::after{transform:translateY(.1em) rotate(-135deg)}
.studio-notice:has(>.studio-notice-details[aria-expanded="false"]){flex-wrap:nowrap}
.studio-notice:has(>.studio-notice-details[aria-expanded="false"]) p{flex:1 1 0;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.studio-notice:has(>.studio-notice-details[aria-expanded="false"]) a{display:none}
}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
[data-studio-unusable],.Toastify__toast[hidden]{display:none!important}
@media (max-width:799.98px){
[class*="-EditorContainer"]:has(> [class*="-Editor "]){position:static;min-width:0;height:auto;padding-top:0;overflow:visible}
[class*="-EditorContainer"]>[class*="-ToolbarContainer"]{position:static;min-width:0;height:auto;flex-wrap:wrap;row-gap:.25rem;padding-bottom:.5rem}
[class*="-ToolbarContainer"]>[class*="-ToolbarSectionBackLink"]{flex:1 1 0;min-width:0;height:auto;padding:.75rem 1rem .25rem}
[class*="-ToolbarContainer"]>[class*="-ToolbarSectionMeta"]{order:1;height:auto}
[class*="-ToolbarContainer"]>[class*="-ToolbarSectionMain"]{order:2;flex:1 1 100%;flex-wrap:wrap;gap:.5rem;padding:0 1rem}
[class*="-ToolbarSectionMain"]>*{flex-wrap:wrap;gap:.5rem;height:auto}
[class*="-ToolbarSectionMain"] [class*="-ToolbarButton"],[class*="-ToolbarSectionMain"] [class*="-StyledWrapper"]{margin:0}
[class*="-EditorContainer"]>[class*="-Editor "]{height:auto}
[class*="-Editor "]>[class*="-ViewControls"],.SplitPane>.Resizer,.SplitPane>.Pane2{display:none!important}
.SplitPane{position:static!important;display:block!important;height:auto!important;overflow:visible!important}
.SplitPane>.Pane1{width:auto!important;height:auto!important}
[class*="-ControlPaneContainer"]{height:auto!important;overflow:visible!important;max-width:none}
[class*="-EditorControlBar"]{position:static}
}
@media (max-width:26rem){#studio-bar{padding:.3rem .5rem;gap:.25rem .5rem}}
@media (max-width:799.98px) and (min-height:600px){[class*="-EditorContainer"]>[class*="-ToolbarContainer"]{position:sticky;top:0}}`;

/** The admin module, bundled once per studio (esbuild, for the browser). */
export async function adminModule(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../admin/main.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    define: {
      STUDIO_TEMPLATES: JSON.stringify([...Object.keys(LANDING_FILES), ...Object.keys(DOCUMENT_COLLECTIONS)]),
      STUDIO_REQUIRED_DISCLOSURES: JSON.stringify(Object.keys(REQUIRED_DISCLOSURES)),
    },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
