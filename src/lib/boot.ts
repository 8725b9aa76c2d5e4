import { transformSync } from "esbuild";
import { CONSENT_EVENT, consentController, type ConsentControllerOptions } from "./consent";
import { CONSENT_HTML_ATTRIBUTE, CONSENT_STORAGE_KEY, CONSENT_VALUES, HEADER_SCROLL_THRESHOLD_PX } from "./constants";
import { headerController } from "./header";

/**
 * The one inline <head> script of every page: the behaviour a visitor can meet at first paint, before
 * any bundle has loaded or when none can (the consent banner and Cookie settings, the header's scrolled
 * state). Each part is defined, and unit-tested, in its own module; this only writes them out.
 */
export function bootScript(analyticsScriptUrl: string): string {
  const consent: ConsentControllerOptions = {
    key: CONSENT_STORAGE_KEY,
    attribute: CONSENT_HTML_ATTRIBUTE,
    accepted: CONSENT_VALUES[0],
    rejected: CONSENT_VALUES[1],
    event: CONSENT_EVENT,
    analytics: analyticsScriptUrl,
  };
  const source = [
    `(${consentController.toString()})(window,${JSON.stringify(consent)});`,
    `(${headerController.toString()})(window,${HEADER_SCROLL_THRESHOLD_PX});`,
  ].join("");
  // Minified at build time: it travels in every page's first round trip.
  return transformSync(source, { minify: true, target: "es2020", legalComments: "none" }).code.trim();
}
