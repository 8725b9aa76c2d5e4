/** The principals' roster (approvals/roster.json): the schema the build checks, and who is a principal on a given day. */
import { describe, expect, it } from "vitest";
import { activeEntry, parseRoster, readRoster } from "../../lib/approval/roster.ts";
import { projectRoot } from "../../lib/root.ts";
import { PAT } from "../fixtures/roster/entries.ts";

const pat = PAT;
const problems = (entries: unknown) => {
  try {
    parseRoster(JSON.stringify(entries));
    return "";
  } catch (error) {
    return (error as Error).message;
  }
};

describe("the principals' roster", () => {
  it("reads the repository's roster: fictional principals, one of them no longer designated", () => {
    const roster = readRoster(projectRoot);
    expect(roster.length).toBeGreaterThanOrEqual(2);
    expect(roster.every((entry) => entry.email.endsWith("@example.com"))).toBe(true);
    expect(roster.some((entry) => entry.until !== null)).toBe(true);
  });

  it.each([
    ["a CRD that is not digits", { crd: "CRD 1" }, "approvals/roster.json: 0.crd: the CRD number, digits only"],
    ["no registration", { registrations: [] }, "0.registrations: at least one registration"],
    ["a date that is not YYYY-MM-DD", { from: "2 Jan 2026" }, "0.from: a date as YYYY-MM-DD"],
    ["an end before the start", { until: "2025-12-31" }, "0.until: until is before from"],
    ["an e-mail in capitals", { email: "Pat.Example@example.com" }, "0.email: lower case, as the IdP gives it"],
    ["a field the roster does not have", { role: "principal" }, '0: Unrecognized key: "role"'],
  ])("refuses %s, naming the file and the field", (_, change, message) => {
    expect(problems([{ ...pat, ...change }])).toContain(message);
  });

  it("refuses the same person twice", () => {
    expect(problems([pat, { ...pat, crd: "1000009" }])).toContain("1.email: listed twice");
  });

  it.each([
    ["before the designation", "2026-01-01", undefined],
    ["on its first day", "2026-01-02", "Pat Example"],
    ["on its last day", "2026-06-30", "Pat Example"],
    ["after it ended", "2026-07-01", undefined],
  ])("finds a principal %s only while designated", (_, day, name) => {
    const roster = parseRoster(JSON.stringify([{ ...pat, until: "2026-06-30" }]));
    expect(activeEntry(roster, "PAT.example@example.com", day)?.name).toBe(name);
  });
});
