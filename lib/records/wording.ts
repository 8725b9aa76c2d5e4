/**
 * The records' words for what a capture is, one wording for the studio's pages and the examiner's
 * export (index.html, index.csv), so that an examiner who reads both reads the same thing.
 */
import type { CaptureKind } from "./manifest.ts";

/** A capture's kind, as a phrase. */
export const KIND_WORDS: Record<CaptureKind | "unrecorded", string> = {
  deploy: "Captured as it was deployed",
  scheduled: "Daily capture of the live site",
  unrecorded: "Captured before captures recorded their kind",
};

/** Where a capture's time of record comes from, as a phrase. */
export const timeSourceWords = (source: "tsa" | "clock") =>
  source === "tsa" ? "time certified by the Time Stamp Authority" : "time from the capturing machine's clock (no trusted timestamp)";
