/** The speed and size budgets (issue "Speed at the physical limit"). 1 KB = 1024 bytes. */
import { documentFiles } from "../src/build/content-files.ts";
import { projectRoot } from "../lib/root.ts";

export const KB = 1024;

export const byteBudgets = {
  /** Every HTML document, brotli-compressed, fits the first TCP round trip. */
  htmlBrotli: 14 * KB,
  /** All JavaScript a page loads, brotli-compressed (React's client runtime is most of it). */
  jsPerPageBrotli: 65 * KB,
  /** Each island's own code (not shared runtime chunks), brotli-compressed. */
  islandOwnBrotli: 6 * KB,
  /** The landing page's whole transfer before the contact form loads. */
  landingTransferBrotli: 100 * KB,
  /** One self-hosted subset font at most (we ship none: system fonts). */
  fontBytes: 30 * KB,
};

export interface LighthouseBudget {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number | null;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

export const lighthouseBudget: LighthouseBudget = {
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  fcpMs: 900,
  lcpMs: 900,
  tbtMs: 30,
  cls: 0,
};

/**
 * Lighthouse's Total Blocking Time must be 0 ms in at least this many of the mobile runs of each page
 * (a median hides the one run in five that catches a long task).
 */
export const tbtZeroRuns = { atLeast: 4, of: 5 };

/** The landing page in Chromium's own timeline on a slow phone (bench/timeline.ts), medians of the visits. */
export const timelineBudget = {
  /** No task over this long may end after the first contentful paint in 15 s without input. */
  longestTaskAfterPaintMs: 50,
  /** Every tap (a link, a tooltip trigger, the banner's button, at 1, 2.5, 4 and 8 s) starts being handled within this. */
  tapInputDelayMs: 50,
};

/** The 404 page is not indexed, so SEO does not apply. */
export const notFoundBudget: LighthouseBudget = { ...lighthouseBudget, seo: null };

export const PAGES: readonly string[] = ["/", ...documentFiles(projectRoot).map(({ slug }) => `/${slug}`), "/404"];

/** The team studio (`npm run bench:studio`, medians of 3 runs): start, a review with its build, a publish to the firm's git host. */
export const studioBudget = { startMs: 10_000, reviewMs: 30_000, publishMs: 15_000 };

/** The records at three years' size (`npm run bench:records`, 1,100 captures in a folder store, the loopback studio). */
export const recordsBudget = { timelineFirstByteMs: 1_000, asOfMs: 200, exportMs: 60_000 };
