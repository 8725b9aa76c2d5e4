declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate when the island has something to do: "intent", "near", or ms after navigation start (src/client/directives/when.ts). */
    "client:when"?: "intent" | "near" | number;
  }
}
declare module "virtual:head-script" {
  /** The inline <head> script, bundled from src/client/head/ (src/build/head-script.ts). */
  const code: string;
  export default code;
}
export {};
