declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate after the first paint, when idle (src/directives/after-paint.ts). */
    "client:afterpaint"?: boolean;
  }
}
export {};
