// Ambient (no import or export here): modules that Vite plugins of this project provide.
declare module "virtual:head-script" {
  /** The inline <head> scripts, bundled from src/client/head/ (src/build/head-script.ts): every page's, and the landing page's. */
  export const page: string;
  export const landing: string;
}

declare module "virtual:page-reviews" {
  /**
   * The day (YYYY-MM-DD, the firm's time zone) each document page was last reviewed, by page path, as
   * approvals/ledger.json records it; a page without one counts from its "Last updated" (decision 0056).
   */
  export const reviewDays: Readonly<Record<string, string>>;
}
