declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate when the island has something to do: "intent", "near", or ms after navigation start (src/client/directives/when.ts). */
    "client:when"?: "intent" | "near" | number;
  }
}
declare global {
  interface ImportMetaEnv {
    /** True in the reviewers' build (astro.preview.config.mjs), which makes only what a review shows. */
    readonly SITE_PREVIEW: boolean;
  }
}
export {};
