declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate when the island has something to do: "intent", "near", or ms after navigation start (src/client/directives/when.ts). */
    "client:when"?: "intent" | "near" | number;
  }
}
export {};
