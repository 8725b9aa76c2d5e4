/**
 * Review dates (issue 54, decision 0056): the policy compliance owns (approvals/review-policy.yaml),
 * durations added to the firm's days, the reviews the ledger records, each page's status, and
 * `npm run reviews` on the project as it stands.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordApproval, emptyLedger, type Ledger } from "../../lib/approval/ledger.ts";
import {
  addDuration,
  dayIn,
  lastReviewOf,
  pageReviews,
  parseDuration,
  parseReviewPolicy,
  reviewDays,
  withReviewLine,
  type ReviewPolicy,
} from "../../lib/approval/reviews.ts";
import { ownWordsChanged } from "../../studio/workflow/approve.ts";
import { projectReviews, reviewSentence } from "../../lib/approval/review-report.ts";
import { projectRoot } from "../../lib/root.ts";
import { PAT } from "../fixtures/roster/entries.ts";

const HASH = (n: number) => n.toString(16).padStart(64, "0");
const PAGES = ["/", "/risk-disclosures", "/business-continuity"];

const policyText = (pages: string) => `timeZone: America/New_York
default:
  interval: P12M
  owner: Compliance
  reason: Written supervisory procedures (FINRA 3110)
pages:
${pages}`;

const problems = (text: string) => {
  try {
    parseReviewPolicy(text, { pages: PAGES, roster: [PAT] });
    return "";
  } catch (error) {
    return (error as Error).message;
  }
};

describe("durations and days", () => {
  it.each([
    ["P12M", { years: 0, months: 12, weeks: 0, days: 0 }],
    ["P1Y", { years: 1, months: 0, weeks: 0, days: 0 }],
    ["P1Y6M", { years: 1, months: 6, weeks: 0, days: 0 }],
    ["P2W", { years: 0, months: 0, weeks: 2, days: 0 }],
    ["P90D", { years: 0, months: 0, weeks: 0, days: 90 }],
  ])("reads %s", (text, parts) => {
    expect(parseDuration(text)).toMatchObject(parts);
  });

  it.each(["12M", "P", "P0M", "PT12H", "P1.5M", "p12m", "P12M ", "P-1M"])("refuses %j", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it.each([
    ["2025-01-15", "P12M", "2026-01-15"],
    ["2025-01-31", "P1M", "2025-02-28"],
    ["2024-01-31", "P1M", "2024-02-29"],
    ["2024-02-29", "P1Y", "2025-02-28"],
    ["2026-08-31", "P6M", "2027-02-28"],
    ["2026-11-29", "P30D", "2026-12-29"],
    ["2026-12-25", "P2W", "2027-01-08"],
  ])("%s + %s is %s", (day, duration, due) => {
    expect(addDuration(day, parseDuration(duration)!)).toBe(due);
  });

  it("takes a review's day in the firm's zone, not the machine's or UTC", () => {
    // 22:30 in New York on 29 November is 03:30 UTC on the 30th, and 12:30 on the 30th in Tokyo.
    expect(dayIn("2026-11-30T03:30:00Z", "America/New_York")).toBe("2026-11-29");
    expect(dayIn("2026-11-30T03:30:00Z", "Asia/Tokyo")).toBe("2026-11-30");
    expect(dayIn("2026-11-30T03:30:00Z", "UTC")).toBe("2026-11-30");
  });
});

describe("the review policy", () => {
  it("reads the repository's policy: the landing page every 6 months, the business continuity summary every 12 (FINRA 4370(b))", () => {
    const { policy } = projectReviews(projectRoot, "2026-11-29");
    expect(policy.timeZone).toBe("America/New_York");
    expect(policy.pages["/"]!.interval.text).toBe("P6M");
    expect(policy.pages["/business-continuity"]).toMatchObject({ interval: { text: "P12M" }, reason: "FINRA 4370(b)" });
    for (const page of ["/privacy-policy", "/terms-of-service", "/cookie-policy", "/risk-disclosures"])
      expect(policy.pages[page]!.interval.text).toBe("P12M");
    expect(policy.default.interval.text).toBe("P12M");
  });

  it("names the file and the line of a page that does not exist and of an interval that does not parse, all at once", () => {
    const message = problems(
      policyText(`  /:
    interval: P6M
    owner: Compliance
    reason: WSP
  /pricing:
    interval: P12M
    owner: Compliance
    reason: WSP
  /risk-disclosures:
    interval: 12 months
    owner: Compliance
    reason: WSP
`),
    );
    expect(message).toContain("approvals/review-policy.yaml:11: pages: /pricing is not a page of the site");
    expect(message).toContain('approvals/review-policy.yaml:16: pages./risk-disclosures.interval: "12 months" is not an ISO 8601 duration');
  });

  it("refuses an owner who is not in the roster, a field it does not know, a missing reason and a zone that does not exist", () => {
    const message = problems(
      policyText(`  /:
    interval: P6M
    owner: nobody@example.com
    reason: WSP
  /risk-disclosures:
    interval: P12M
    owner: Compliance
    why: WSP
`),
    );
    expect(message).toContain("approvals/review-policy.yaml:14: pages./risk-disclosures.why: not a field of the policy");
    expect(message).toMatch(/approvals\/review-policy\.yaml:11: pages\.\/risk-disclosures\.reason: /);
    // The shape first: an owner is checked once the fields are all there.
    expect(
      problems(
        policyText(`  /:\n    interval: P6M\n    owner: nobody@example.com\n    reason: WSP\n`).replace("timeZone: America/New_York", ""),
      ),
    ).toBe("approvals/review-policy.yaml:9: pages./.owner: nobody@example.com is not in approvals/roster.json");
    expect(problems(policyText("  {}").replace("America/New_York", "America/Gotham"))).toContain(
      'approvals/review-policy.yaml:1: timeZone: "America/Gotham" is not a time zone',
    );
    expect(problems("pages: [")).toMatch(/^approvals\/review-policy\.yaml:1: not YAML/);
  });

  it("accepts a person of the roster as the owner, by e-mail", () => {
    expect(problems(policyText(`  /:\n    interval: P6M\n    owner: ${PAT.email}\n    reason: WSP\n`))).toBe("");
  });
});

describe("reviews in the ledger", () => {
  const policy: ReviewPolicy = parseReviewPolicy(
    policyText("  /risk-disclosures:\n    interval: P12M\n    owner: Compliance\n    reason: FINRA 2210(d)(1)\n"),
    { pages: PAGES, roster: [PAT] },
  );
  const approve = (ledger: Ledger, page: string, n: number, on: string, review?: "no change" | "changed") =>
    recordApproval(ledger, page, HASH(n), "Pat Example, Series 24", new Date(on), review ? { review } : {}).ledger;

  it("counts only approvals marked as reviews: not a text rule's re-approval, nor the first approval of the line", () => {
    let ledger = approve(emptyLedger(), "/risk-disclosures", 1, "2026-02-01T15:00:00Z", "changed");
    ledger = approve(ledger, "/risk-disclosures", 2, "2026-11-27T08:00:00Z");
    expect(lastReviewOf(ledger, "/risk-disclosures")).toMatchObject({ on: "2026-02-01T15:00:00Z", kind: "changed" });
    // A review of unchanged words is recorded even when the approved text is the same.
    ledger = approve(ledger, "/risk-disclosures", 2, "2026-11-30T03:30:00Z", "no change");
    expect(ledger.pages["/risk-disclosures"]!.history).toHaveLength(2);
    expect(lastReviewOf(ledger, "/risk-disclosures")).toMatchObject({ on: "2026-11-30T03:30:00Z", kind: "no change" });
    expect(reviewDays(ledger, ["/risk-disclosures", "/terms-of-service"], "America/New_York")).toEqual({
      "/risk-disclosures": "2026-11-29",
    });
  });

  it.each([
    ["2027-01-14", 31, "ok"],
    ["2027-01-15", 30, "due soon"],
    ["2027-02-14", 0, "due soon"],
    ["2027-02-15", -1, "overdue"],
  ])("on %s a page due 14 Feb 2027 has %i days left: %s", (today, daysLeft, status) => {
    const ledger = approve(emptyLedger(), "/risk-disclosures", 1, "2026-02-14T17:00:00Z", "no change");
    const [review] = pageReviews([{ page: "/risk-disclosures", title: "Risk Disclosures" }], ledger, policy, today);
    expect(review).toMatchObject({ dueDay: "2027-02-14", daysLeft, status });
  });

  it("counts a page never reviewed from its Last updated, and one without it from its first approval", () => {
    const ledger = approve(approve(emptyLedger(), "/", 1, "2026-11-22T06:28:49Z"), "/", 2, "2026-11-27T08:00:00Z");
    const [legal, landing] = pageReviews(
      [
        { page: "/risk-disclosures", title: "Risk Disclosures", lastUpdated: "2025-01-15" },
        { page: "/", title: "Landing page" },
      ],
      ledger,
      policy,
      "2026-11-29",
    );
    expect(legal).toMatchObject({ lastDay: "2025-01-15", since: "last updated", dueDay: "2026-01-15", status: "overdue" });
    expect(reviewSentence(legal!)).toBe(
      "Risk Disclosures: review overdue since 15 Jan 2026 (FINRA 2210(d)(1), every 12 months); owner: Compliance",
    );
    expect(landing).toMatchObject({ lastDay: "2026-11-22", since: "first approval", dueDay: "2027-11-22", status: "ok" });
  });
});

describe("npm run reviews", () => {
  it("lists the four legal pages as overdue on the project as it stands, writes the report, and exits 1", () => {
    const folder = mkdtempSync(join(tmpdir(), "reviews-"));
    try {
      const report = join(folder, "reviews.md");
      const run = spawnSync(process.execPath, ["scripts/reviews.ts", "--on", "2026-11-29", "--report", report], {
        cwd: projectRoot,
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(1);
      const overdue = run.stdout.split("\n").filter((line) => line.trimStart().startsWith("overdue"));
      expect(overdue.map((line) => line.trim().split(/\s+/)[1]).sort()).toEqual([
        "/cookie-policy",
        "/privacy-policy",
        "/risk-disclosures",
        "/terms-of-service",
      ]);
      for (const line of overdue) expect(line).toContain("last reviewed 15 Jan 2025 (no review recorded");
      expect(overdue.join("\n")).toContain("due 15 Jan 2026");
      expect(run.stdout).toMatch(
        /ok\s+\/business-continuity\s+Business Continuity Plan Summary: .*due 1 Nov 2027 \(FINRA 4370\(b\), every 12 months; owner: Compliance\)/,
      );
      expect(run.stderr).toContain("4 page(s) overdue for review");
      const markdown = readFileSync(report, "utf8");
      expect(markdown).toContain("As of 29 Nov 2026 (America/New_York): 4 overdue, 0 due within 30 days, 4 ok.");
      expect(markdown).toContain("| overdue | Risk Disclosures (`/risk-disclosures`) | 15 Jan 2025 (no review recorded");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("exits 0 on a day when nothing is overdue, and refuses a day it cannot read", () => {
    const ok = spawnSync(process.execPath, ["scripts/reviews.ts", "--on", "2025-06-01"], { cwd: projectRoot, encoding: "utf8" });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).not.toMatch(/^\s+overdue/m);
    const bad = spawnSync(process.execPath, ["scripts/reviews.ts", "--on", "29/11/2026"], { cwd: projectRoot, encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('reviews: --on takes a day as YYYY-MM-DD, not "29/11/2026"\n');
  });
});

describe("what makes an approval a review", () => {
  const page = ({ reviewed = "January 2025", words = "Digital asset prices are volatile.", footer = "Member FINRA/SIPC" } = {}) =>
    `<!doctype html><html><head><title>Risk Disclosures</title></head><body><a href="#main">Skip to content</a><header>Fictive Markets</header>` +
    `<main id="main"><h1>Risk Disclosures</h1><div><p>Last updated: January 2025</p><p>Last reviewed: ${reviewed}</p></div><p>${words}</p></main>` +
    `<footer><p>${footer}</p></footer></body></html>`;

  it("is one when the page's own words changed, or the page is new", () => {
    expect(ownWordsChanged(page(), page({ words: "Digital asset prices are highly volatile." }))).toBe(true);
    expect(ownWordsChanged("", page())).toBe(true);
  });

  it("is none when only the shared parts, or only the Last reviewed line, changed", () => {
    expect(ownWordsChanged(page(), page())).toBe(false);
    expect(ownWordsChanged(page(), page({ footer: "Member FINRA and SIPC" }))).toBe(false);
    expect(ownWordsChanged(page(), page({ reviewed: "November 2026" }))).toBe(false);
  });

  it("moves the Last reviewed line of the approved text, and leaves a page without one as it is", () => {
    const text = "Risk Disclosures\nLast updated: January 2025\nLast reviewed: January 2025\nWords\n";
    expect(withReviewLine(text, "November 2026")).toBe(
      "Risk Disclosures\nLast updated: January 2025\nLast reviewed: November 2026\nWords\n",
    );
    expect(withReviewLine("Landing\nWords\n", "November 2026")).toBe("Landing\nWords\n");
    expect(() => withReviewLine(`${text}Last reviewed: May 2026\n`, "November 2026")).toThrow('2 "Last reviewed: " lines');
  });
});

describe("a material change of the site's facts (item 8)", () => {
  const policy = parseReviewPolicy(
    policyText("  /business-continuity:\n    interval: P12M\n    owner: Compliance\n    reason: FINRA 4370(b)\n"),
    {
      pages: PAGES,
      roster: [PAT],
    },
  );
  const facts = (crd: string) => ({
    brokerDealerName: "Fictive Securities LLC",
    brokerDealerCrd: crd,
    brokerCheckUrl: `https://brokercheck.finra.org/firm/summary/${crd}`,
  });
  let ledger = recordApproval(emptyLedger(), "/business-continuity", HASH(1), "Pat Example, Series 24", new Date("2026-11-01T15:00:00Z"), {
    review: "changed",
    facts: facts("000000"),
  }).ledger;
  // The CRD changed in the configuration; the pages' new text approved on 10 December by the command line (no review).
  ledger = recordApproval(ledger, "/business-continuity", HASH(2), "Pat Example, Series 24", new Date("2026-12-10T15:00:00Z"), {
    facts: facts("1234567"),
  }).ledger;
  ledger = recordApproval(ledger, "/", HASH(3), "Pat Example, Series 24", new Date("2026-12-10T15:00:00Z"), {
    facts: facts("1234567"),
  }).ledger;

  it("makes a page that shows the fact due the day its new text was approved, and says which fact changed", () => {
    const [continuity, landing] = pageReviews(
      [
        { page: "/business-continuity", title: "Business Continuity Plan Summary", text: "Fictive Securities LLC (CRD #1234567)\n" },
        { page: "/", title: "Landing page", text: "Settlement, run as a service\n" },
      ],
      ledger,
      policy,
      "2026-12-15",
      facts("1234567"),
    );
    expect(continuity).toMatchObject({
      dueDay: "2026-12-10",
      status: "overdue",
      // The BrokerCheck address changed too, but the page does not show it.
      materialChanges: ["the broker-dealer's CRD number changed (000000 → 1234567)"],
    });
    expect(reviewSentence(continuity!)).toBe(
      "Business Continuity Plan Summary: review due now, since the broker-dealer's CRD number changed (000000 → 1234567) (FINRA 4370(b), every 12 months); owner: Compliance",
    );
    // The landing page does not show the CRD: its review stays on its cycle.
    expect(landing).toMatchObject({ status: "ok" });
    expect(landing!.materialChanges).toBeUndefined();
  });

  it("is over once a principal reviews the page with the new facts", () => {
    const reviewed = recordApproval(ledger, "/business-continuity", HASH(2), "Pat Example, Series 24", new Date("2026-12-16T15:00:00Z"), {
      review: "no change",
      facts: facts("1234567"),
    }).ledger;
    const [continuity] = pageReviews(
      [{ page: "/business-continuity", title: "Business Continuity Plan Summary", text: "CRD #1234567\n" }],
      reviewed,
      policy,
      "2026-12-17",
      facts("1234567"),
    );
    expect(continuity).toMatchObject({ status: "ok", dueDay: "2027-12-16" });
  });
});
