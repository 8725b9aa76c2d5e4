/**
 * A second build whose configuration names the optional services: an analytics script
 * (tests/e2e/analytics.spec.ts) and a status page (tests/e2e/status.spec.ts).
 */
export const ANALYTICS_SCRIPT_URL = "https://analytics.example.org/script.js";
export const STATUS_URL = "https://status.example.org";

/**
 * Another configuration has other text (a status page's link), which nobody has approved: it is built
 * as a preview (astro.preview.config.mjs, drafts marked), as a deployment's text would be before its
 * principal approves it.
 */
export const CONFIGURED_BUILD_ENV = {
  SITE_OUT_DIR: "dist-configured",
  PUBLIC_ANALYTICS_SCRIPT_URL: ANALYTICS_SCRIPT_URL,
  PUBLIC_STATUS_URL: STATUS_URL,
};
