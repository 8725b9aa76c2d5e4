// Ambient (no import or export here): modules that Vite plugins of this project provide.
declare module "virtual:head-script" {
  /** The inline <head> scripts, bundled from src/client/head/ (src/build/head-script.ts): every page's, and the landing page's. */
  export const page: string;
  export const landing: string;
}
