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
  cls: number;
}

/**
 * Lighthouse, mobile medians (simulated slow 4G, CPU ×4). Its simulated LCP is reported, not budgeted:
 * the visitor's LCP is budgeted in Chromium's own timeline (`timelineBudget`), where it is the frame in
 * which the largest element was painted.
 */
export const lighthouseBudget: LighthouseBudget = {
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  fcpMs: 900,
  cls: 0,
};

/**
 * Lighthouse's Total Blocking Time, judged against the control page served with the same headers in the
 * same run (the owners' decision: Cross-Origin-Opener-Policy stays, and its cost on this machine is the
 * control's too): each page's mobile median at most the control's median plus this; on desktop, 0 ms.
 */
export const tbtBudget = { overControlMs: 10, desktopMs: 0 };

/** The landing page in Chromium's own timeline on a slow phone (bench/timeline.ts), medians of the visits. */
export const timelineBudget = {
  /**
   * The longest task that ends after the first contentful paint in 15 s without input: reported, not
   * budgeted (it was 50 ms). Accepted on 2026-11-26 as the owners' rule allowed once their road was
   * tried (docs/decisions/0010): laying the lower sections out only as they were neared shortened it
   * (median 104 → 79 ms in 12 visits each) without splitting it, and blanked them in full-page captures
   * and in axe's view of a fresh visit, so it was withdrawn. The taps' input delay and the dead-tap
   * window stay budgeted.
   */
  longestTaskAfterPaintMs: null as number | null,
  /** Every tap (a link, a tooltip trigger, the banner's button, at 1, 2.5, 4 and 8 s) starts being handled within this. */
  tapInputDelayMs: 50,
  /** The visitor's largest contentful paint at most this much later than the control page's, in the same run. */
  lcpOverControlMs: 200,
};

/** The dead-tap window (bench/taps.ts): a tap on the cookie banner works from the first one after its paint. */
export const deadTapBudget = { windowMs: 0 };

/** The 404 page is not indexed, so SEO does not apply. */
export const notFoundBudget: LighthouseBudget = { ...lighthouseBudget, seo: null };

export const PAGES: readonly string[] = ["/", ...documentFiles(projectRoot).map(({ slug }) => `/${slug}`), "/404"];

/**
 * The team studio (`npm run bench:studio`, medians of 3 runs): start, a review with its build, a publish to
 * the firm's git host (issue 53: the review drawn within 2 s of "send for review", a publish within 3 s),
 * and what a visit to the admin transfers, measured in Chromium: the first (an empty cache) and the next.
 */
export const studioBudget = {
  startMs: 10_000,
  reviewMs: 2_000,
  publishMs: 3_000,
  adminFirstVisitBytes: 1_300_000,
  adminNextVisitBytes: 50 * 1024,
};

/** The records at three years' size (`npm run bench:records`, 1,100 captures in a folder store, the loopback studio). */
export const recordsBudget = { captureMs: 60_000, timelineFirstByteMs: 1_000, asOfMs: 200, exportMs: 60_000 };

/** The team studio's disk (`npm run bench:studio-disk`): its state and preview builds after 200 edits through it. */
export const studioDiskBudget = { bytes: 1024 ** 3 };
