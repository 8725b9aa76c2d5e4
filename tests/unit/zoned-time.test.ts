/**
 * A local time in the firm's zone and the instant it names (lib/zoned-time.ts), across both of 2027's
 * daylight-saving changes in New York (14 March, clocks forward at 02:00; 7 November, back at 02:00):
 * a skipped time is said missing, a repeated one ambiguous until the earlier or later is chosen, and
 * the answer is the same whatever the process's own zone (TZ) is.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { instantOf, localValue, momentWritten, nextOffsetChange, offsetWritten } from "../../lib/zoned-time.ts";
import { momentOf } from "../../studio/workflow/schedule.ts";

const NY = "America/New_York";
const at = (local: string, choose?: "earlier" | "later") => {
  const found = instantOf(local, NY, choose);
  return found.kind === "instant" ? found.at.toISOString() : found.kind;
};

describe("a local time in America/New_York", () => {
  it.each([
    // Spring forward, Sunday 14 March 2027: 02:00–02:59 does not happen.
    ["2027-03-14T01:59", "2027-03-14T06:59:00.000Z"],
    ["2027-03-14T02:00", "missing"],
    ["2027-03-14T02:30", "missing"],
    ["2027-03-14T02:59", "missing"],
    ["2027-03-14T03:00", "2027-03-14T07:00:00.000Z"],
    ["2027-03-15T09:30", "2027-03-15T13:30:00.000Z"],
    // Fall back, Sunday 7 November 2027: 01:00–01:59 happens twice.
    ["2027-11-07T00:59", "2027-11-07T04:59:00.000Z"],
    ["2027-11-07T01:00", "ambiguous"],
    ["2027-11-07T01:30", "ambiguous"],
    ["2027-11-07T01:59:59", "ambiguous"],
    ["2027-11-07T02:00", "2027-11-07T07:00:00.000Z"],
    ["2027-03-01T09:30", "2027-03-01T14:30:00.000Z"],
    ["2027-07-01T09:30:15", "2027-07-01T13:30:15.000Z"],
    ["2027-02-29T09:30", "malformed"],
    ["2027-13-01T09:30", "malformed"],
    ["2027-03-01 09:30", "malformed"],
    ["", "malformed"],
  ])("%s is %s", (local, expected) => {
    expect(at(local)).toBe(expected);
  });

  it("gives a repeated time's earlier or later instant when chosen", () => {
    expect(at("2027-11-07T01:30", "earlier")).toBe("2027-11-07T05:30:00.000Z");
    expect(at("2027-11-07T01:30", "later")).toBe("2027-11-07T06:30:00.000Z");
    // A time that happens once is that time whatever is chosen.
    expect(at("2027-03-01T09:30", "later")).toBe("2027-03-01T14:30:00.000Z");
  });

  it("writes the moment in the zone and in UTC, and the zone's next change", () => {
    expect(momentWritten("2027-03-01T14:30:00Z", NY)).toBe("1 Mar 2027, 09:30 America/New_York (14:30 UTC)");
    expect(momentWritten("2027-03-02T02:30:00Z", NY)).toBe("1 Mar 2027, 21:30 America/New_York (2 Mar 2027, 02:30 UTC)");
    expect(localValue("2027-11-07T06:30:00Z", NY)).toBe("2027-11-07T01:30");
    const change = nextOffsetChange(new Date("2027-01-10T00:00:00Z"), NY)!;
    expect([change.at.toISOString(), offsetWritten(change.offset)]).toEqual(["2027-03-14T07:00:00.000Z", "UTC\u221204:00"]);
    expect(nextOffsetChange(new Date("2027-01-10T00:00:00Z"), "Asia/Tokyo")).toBeUndefined();
  });

  it("names the same instants in a process whose own zone is Asia/Tokyo", () => {
    const script = `import { instantOf } from ${JSON.stringify(new URL("../../lib/zoned-time.ts", import.meta.url).pathname)};
      const out = ["2027-03-14T01:59", "2027-03-14T03:00", "2027-11-07T00:59", "2027-11-07T02:00"].map((l) => instantOf(l, "America/New_York"));
      console.log(JSON.stringify({ offset: new Date(2027, 0, 1).getTimezoneOffset(), out: out.map((f) => f.at) }));`;
    const tokyo = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        env: { ...process.env, TZ: "Asia/Tokyo" },
        encoding: "utf8",
      }),
    ) as { offset: number; out: string[] };
    expect(tokyo).toEqual({
      offset: -540,
      out: ["2027-03-14T06:59:00.000Z", "2027-03-14T07:00:00.000Z", "2027-11-07T04:59:00.000Z", "2027-11-07T07:00:00.000Z"],
    });
  });
});

describe("a principal's Publish at", () => {
  const now = new Date("2027-01-10T15:00:00Z");
  const refusal = (publishAt: string, offset = "") => {
    const found = momentOf({ publishAt, offset }, NY, now);
    return "refusal" in found ? found.refusal : found.at.toISOString();
  };

  it.each([
    ["2027-03-14T02:30", "", "There is no 02:30 on 2027-03-14 in America/New_York: the clocks go forward that night"],
    [
      "2027-11-07T01:30",
      "",
      '01:30 on 2027-11-07 happens twice in America/New_York, as the clocks go back that night: choose the first (UTC\u221204:00) or the second (UTC\u221205:00) under "If the time happens twice".',
    ],
    [
      "2027-01-10T09:59",
      "",
      "That moment has passed (10 Jan 2027, 09:59 America/New_York (14:59 UTC)): choose a time ahead, or approve without one.",
    ],
    ["tomorrow", "", "Give the moment to publish as a date and a time, for example 2027-03-01 09:30."],
    ["2027-11-07T01:30", "later", "2027-11-07T06:30:00.000Z"],
    ["2027-01-10T10:01", "", "2027-01-10T15:01:00.000Z"],
  ])("%s (%s) answers %s", (publishAt, offset, expected) => {
    expect(refusal(publishAt, offset)).toContain(expected);
  });
});
