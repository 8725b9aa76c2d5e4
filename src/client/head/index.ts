/**
 * Every page's inline <head> script: what a visitor can meet at first paint, before any bundle has
 * loaded or when none can (the consent banner and Cookie settings, the header's scrolled state). The
 * landing page's (landing.ts) adds the popup and the tooltips' Escape.
 * Bundled by esbuild at build time (src/build/head-script.ts), which defines the analytics script's URL
 * (consent.ts).
 */
import { consentController } from "./consent";
import { headerController } from "./header";

consentController();
headerController();
