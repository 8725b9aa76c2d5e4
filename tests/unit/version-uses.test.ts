/**
 * Each version's first and last use (FINRA 2210(b)(4)(A)), as the examiner's export gives them: over every
 * capture of the store, a page's text as captured is in use from the first capture of a run that shows it
 * until the next capture after the run; the latest capture's versions are still in use.
 */
import { describe, expect, it } from "vitest";
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { selectForExport } from "../../lib/records/export.ts";

/** A complete capture at `time` whose pages show these texts (by hash). */
const capture = (time: string, texts: Record<string, string>) =>
  ({
    name: time.replace(/[-:]/g, "").replace(/\.\d+/, ""),
    complete: true,
    time,
    pages: Object.entries(texts).map(([path, textSha256]) => ({ path, textSha256 })),
  }) as unknown as CaptureEntry;

describe("when each version of a page was in use", () => {
  const entries = [
    capture("2026-03-01T06:17:00Z", { "/": "a", "/fees": "x" }),
    capture("2026-03-02T06:17:00Z", { "/": "a", "/fees": "x" }),
    capture("2026-03-03T06:17:00Z", { "/": "b" }),
    capture("2026-03-04T06:17:00Z", { "/": "a", "/fees": "x" }),
    { ...capture("2026-03-05T06:17:00Z", { "/": "c" }), complete: false } as CaptureEntry,
    capture("2026-03-06T06:17:00Z", { "/": "a", "/fees": "y" }),
  ];

  it("runs from the first capture showing the text to the next capture after the run, across the whole store", () => {
    // Only 2 March is exported (with 1 March's capture, in force as the day began); the uses come from every capture.
    const { captures } = selectForExport(entries, { dates: ["2026-03-02"] });
    expect(captures.map((c) => c.entry.time)).toEqual(["2026-03-01T06:17:00Z", "2026-03-02T06:17:00Z"]);
    expect(captures[1]!.uses).toEqual({
      "/": { firstUse: "2026-03-01T06:17:00Z", lastUse: "2026-03-03T06:17:00Z" },
      "/fees": { firstUse: "2026-03-01T06:17:00Z", lastUse: "2026-03-03T06:17:00Z" },
    });
  });

  it("starts a new run when a text comes back, skips an unfinished capture, and leaves the latest version in use", () => {
    const { captures } = selectForExport(entries, { dates: ["2026-03-03", "2026-03-04", "2026-03-06"] });
    const uses = Object.fromEntries(captures.map((c) => [c.entry.time.slice(0, 10), c.uses]));
    expect(uses["2026-03-03"]).toEqual({ "/": { firstUse: "2026-03-03T06:17:00Z", lastUse: "2026-03-04T06:17:00Z" } });
    expect(uses["2026-03-04"]).toEqual({
      "/": { firstUse: "2026-03-04T06:17:00Z" },
      "/fees": { firstUse: "2026-03-04T06:17:00Z", lastUse: "2026-03-06T06:17:00Z" },
    });
    expect(uses["2026-03-06"]).toEqual({ "/": { firstUse: "2026-03-04T06:17:00Z" }, "/fees": { firstUse: "2026-03-06T06:17:00Z" } });
  });
});
