/**
 * Every page's inline <head> script: what a visitor can meet at first paint, before any bundle has
 * loaded or when none can (the consent banner and Cookie settings, the header's scrolled state). The
 * landing page's (landing.ts) adds the popup.
 * Bundled by esbuild at build time (src/build/head-script.ts), which defines the analytics script's URL.
 */
import { consentController } from "./consent";
import { headerController } from "./header";

declare const __ANALYTICS_SCRIPT_URL__: string;

consentController(__ANALYTICS_SCRIPT_URL__);
headerController();
