/**
 * The machine's floor: a control page measured beside the site in the same run. It has the landing
 * page's three tap targets (by the same selectors), a heading and two paragraphs, and nothing else: no
 * CSS, no script, no image but the site's own tab icon (the same file and link, so both pay the same
 * for it). It is served by the project's own server with the site's own headers (dist/_headers), brotli
 * like the site's documents, from a throw-away folder.
 *
 * Whatever the control misses, no page can meet on this machine with this browser: a budget it misses
 * measures the machine (its CPU, the throttling, the browser's own start-up work), not the site. The
 * budgets stay what they are (docs/decisions/0010); the report says which misses the control shares.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { serveBuild, type ServedBuild } from "../scripts/lib/serve-build.ts";
import { projectRoot } from "../lib/root.ts";

export const CONTROL_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Control page</title><link rel="icon" href="/favicon-32.png" sizes="32x32" type="image/png"><meta name="description" content="A page of a few elements, without CSS or script, measured beside the site."></head>
<body>
<nav aria-label="Main"><a href="#features">Features</a> <button type="button" data-tip-trigger>Status</button></nav>
<main><h1>A control page without CSS or script</h1><p>It measures what the machine and the browser cost before any page does anything.</p><p id="features">Features.</p></main>
<div data-consent-banner><button type="button" data-consent-action="reject">Reject All</button></div>
</body>
</html>
`;

/**
 * Serves the control page (at `/`) with the project's server; `stop()` also removes its folder. With
 * `headers: false` it is served without the site's security headers (the server's own caching and
 * content headers only): the difference between the two is what those headers cost in this browser.
 */
export async function serveControl({ headers = true } = {}): Promise<ServedBuild> {
  const dir = mkdtempSync(join(tmpdir(), "bench-control-"));
  for (const [name, html] of [
    ["index.html", CONTROL_HTML],
    ["404.html", CONTROL_HTML.replace("<h1>A control page", "<h1>Not found: a control page")],
  ] as const) {
    writeFileSync(join(dir, name), html);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(html));
  }
  copyFileSync(join(projectRoot, "dist/favicon-32.png"), join(dir, "favicon-32.png"));
  if (headers) copyFileSync(join(projectRoot, "dist/_headers"), join(dir, "_headers"));
  else writeFileSync(join(dir, "_headers"), "# The control without the site's security headers (bench/control.ts).\n");
  // The server resolves SITE_OUT_DIR from the project's root.
  const served = await serveBuild({ SITE_OUT_DIR: relative(projectRoot, dir) });
  return {
    ...served,
    stop: async () => {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
