/**
 * The records' words for what a capture is, one wording for the studio's pages and the examiner's
 * export (index.html, index.csv), so that an examiner who reads both reads the same thing.
 */
import { dateWritten } from "../dates.ts";
import type { CaptureKind } from "./manifest.ts";

/** A capture's kind, as a phrase. */
export const KIND_WORDS: Record<CaptureKind | "unrecorded", string> = {
  deploy: "Captured as it was deployed",
  scheduled: "Daily capture of the live site",
  unrecorded: "Captured before captures recorded their kind",
};

/** The TSA could not certify a capture as it was made: its token is still awaited, or came later (decision 0040). */
export type LateCertification = { waiting: true } | { certifiedAt: string };

/** Where a capture's time of record comes from, as a phrase (and when a token that came later certified it). */
export const timeSourceWords = (source: "tsa" | "clock", late?: LateCertification) =>
  source === "tsa"
    ? "time certified by the Time Stamp Authority"
    : late && "waiting" in late
      ? "time not yet certified: the Time Stamp Authority could not be reached when it was captured, and is asked again at the next capture"
      : late
        ? `time from the capturing machine's clock, certified by the Time Stamp Authority on ${dateWritten(late.certifiedAt, true)}`
        : "time from the capturing machine's clock (no trusted timestamp)";
