/** The local stand-ins every engine suite uses: the site's own server, and the form provider's fixtures. */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { createSiteServer, loadSecurityHeaders } from "../../../server/app.ts";
import { formFrameUrl, site } from "../../../src/config/site.ts";
import { fromRoot } from "../../../lib/root.ts";
import { listenOnLoopback } from "../../../lib/ports.ts";

/** The built site: dist/, or SITE_OUT_DIR. */
export const siteRoot = fromRoot(process.env.SITE_OUT_DIR ?? "dist");

/** Serves the built site with the project's own server on 127.0.0.1, on a port the OS picks (suites run side by side). */
export async function startSiteServer(): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  const server: Server = createSiteServer({ root: siteRoot });
  const port = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const FORM_SCRIPT_URL = site.formEmbedScriptUrl;
export const FORM_FRAME_URL = formFrameUrl(site);
/** Origins (scheme, host, port) of the form provider's script and frames. */
export const FORM_ORIGINS = new Set([new URL(site.formEmbedScriptUrl).origin, new URL(site.formFrameBaseUrl).origin]);

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/form-provider/${name}`, import.meta.url));

/** The provider's answer for one of its URLs, from tests/fixtures/form-provider/ (as testing/form-provider.ts does for Chromium). */
export function formProviderAnswer(url: string): { contentType: string; body: Buffer } {
  if (url === FORM_SCRIPT_URL) return { contentType: "text/javascript", body: fixture("form_embed.js") };
  return { contentType: "text/html; charset=utf-8", body: fixture("form.html") };
}

/** The Content-Security-Policy our server sends for this build (over plain HTTP). */
export const siteCsp = () => loadSecurityHeaders(siteRoot)["Content-Security-Policy"];
