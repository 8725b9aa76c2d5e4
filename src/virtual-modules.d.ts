// Ambient (no import or export here): modules that Vite plugins of this project provide.
declare module "virtual:head-script" {
  /** The inline <head> script, bundled from src/client/head/ (src/build/head-script.ts). */
  const code: string;
  export default code;
}
