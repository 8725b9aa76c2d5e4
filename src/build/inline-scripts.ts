/**
 * The inline scripts the project itself writes into its pages, by text: the head scripts (every page's
 * and the landing page's, bundled from src/client/head/) and the 404 page's console line. With Astro's
 * own (its island runtime, its hydration directives and the small page scripts it inlines, which Astro
 * lists itself: `security.csp` in astro.config.mjs), they are the only inline scripts the Content
 * Security Policy allows by hash; the publish step refuses a build with any other
 * (integrations/publish/index.ts, docs/decisions/0042-csp-hashes-from-a-known-list.md).
 */
import { createHash } from "node:crypto";
import { bundleHeadScript } from "./head-script.ts";

/** The 404 page's script: the missing path in the console, for whoever investigates a broken link. */
export const NOT_FOUND_SCRIPT = 'console.warn("404 Error: no page at", location.pathname);';

/** A script's hash as a CSP source expression names it ("sha256-…"). */
export const cspHash = (text: string): `sha256-${string}` => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

/** The project's own inline scripts' texts, for the site's configuration (its analytics script changes the head script). */
export function ownInlineScripts(analyticsScriptUrl: string): string[] {
  return [bundleHeadScript(analyticsScriptUrl, "page").code, bundleHeadScript(analyticsScriptUrl, "landing").code, NOT_FOUND_SCRIPT];
}
