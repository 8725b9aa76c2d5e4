/**
 * The review reminders (issue 54): one `review-due` issue per page, a comment at 30, 7 and 0 days before
 * its due date and weekly while overdue, never twice for a step, closed once the review is recorded.
 * Walked day by day with an injected clock against a fake of GitHub's issues API, in process; and the
 * command as the daily workflow runs it, against the same fake over HTTP.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { emptyLedger, recordApproval, type Ledger } from "../../lib/approval/ledger.ts";
import { addDuration, pageReviews, parseReviewPolicy, type ReviewedPage } from "../../lib/approval/reviews.ts";
import { projectRoot } from "../../lib/root.ts";
import { reminderStep, remind, REMINDER_LABEL } from "../../scripts/lib/review-reminders.ts";
import { FakeGitHub } from "../support/fake-github.ts";

const policy = parseReviewPolicy(
  `timeZone: America/New_York
default:
  interval: P12M
  owner: Compliance
  reason: Written supervisory procedures (FINRA 3110)
pages:
  /business-continuity:
    interval: P12M
    owner: Compliance
    reason: FINRA 4370(b)
`,
  { pages: ["/business-continuity", "/privacy-policy"], roster: [] },
);
const PAGES: ReviewedPage[] = [
  { page: "/business-continuity", title: "Business Continuity Plan Summary", lastUpdated: "2026-11-01" },
  { page: "/privacy-policy", title: "Privacy Policy", lastUpdated: "2026-12-01" },
];

describe("the reminder steps", () => {
  it.each([
    [31, undefined],
    [30, "30"],
    [8, "30"],
    [7, "7"],
    [1, "7"],
    [0, "0"],
    [-6, "0"],
    [-7, "overdue 7"],
    [-13, "overdue 7"],
    [-14, "overdue 14"],
  ])("%i days before the due date: %s", (daysLeft, step) => {
    expect(reminderStep(daysLeft)).toBe(step);
  });
});

describe("90 days of the daily run", () => {
  it("one issue per page, one comment per step, nothing more on a second run the same day, closed once reviewed", async () => {
    const github = new FakeGitHub();
    let ledger: Ledger = emptyLedger();
    const said: Record<string, string[]> = { "/business-continuity": [], "/privacy-policy": [] };
    for (let n = 0; n < 90; n++) {
      const today = addDuration("2027-09-25", { years: 0, months: 0, weeks: 0, days: n, text: `P${n}D` });
      // The privacy policy is reviewed on 20 November, in the afternoon in New York.
      if (today === "2027-11-20")
        ledger = recordApproval(ledger, "/privacy-policy", "a".repeat(64), "Pat Example, Series 24", new Date("2027-11-20T19:00:00Z"), {
          review: "no change",
        }).ledger;
      for (const run of [1, 2]) {
        const done = await remind(pageReviews(PAGES, ledger, policy, today), github.client());
        if (run === 2) expect(done, `${today}, a second run`).toEqual([]);
        for (const line of done) said[/for (\S+)/.exec(line)![1]!]!.push(`${today} ${line.replace(/ for \S+/, "")}`);
      }
    }
    expect(github.labels).toEqual(new Set([REMINDER_LABEL]));
    // Due 1 Nov 2027, never reviewed: opened 30 days ahead, then 7, 0, and every week overdue.
    expect(said["/business-continuity"]).toEqual([
      "2027-10-02 opened #1 (step 30)",
      "2027-10-25 commented on #1 (step 7)",
      "2027-11-01 commented on #1 (step 0)",
      "2027-11-08 commented on #1 (step overdue 7)",
      "2027-11-15 commented on #1 (step overdue 14)",
      "2027-11-22 commented on #1 (step overdue 21)",
      "2027-11-29 commented on #1 (step overdue 28)",
      "2027-12-06 commented on #1 (step overdue 35)",
      "2027-12-13 commented on #1 (step overdue 42)",
      "2027-12-20 commented on #1 (step overdue 49)",
    ]);
    // Due 1 Dec 2027, reviewed on 20 November: opened 30 days ahead, closed the day of the review.
    expect(said["/privacy-policy"]).toEqual(["2027-11-01 opened #2 (step 30)", "2027-11-20 closed #2 (reviewed)"]);
    const [continuity] = github.issuesOf("/business-continuity");
    expect(github.issuesOf("/business-continuity")).toHaveLength(1);
    expect(continuity).toMatchObject({ title: "Review due: Business Continuity Plan Summary (/business-continuity)", state: "open" });
    expect(continuity!.body).toContain("Business Continuity Plan Summary is due for review in 30 days, on 1 Nov 2027.");
    expect(continuity!.body).toContain(
      "- Business Continuity Plan Summary: review due 1 Nov 2027 (FINRA 4370(b), every 12 months); owner: Compliance.",
    );
    expect(continuity!.comments.at(-1)).toContain("Business Continuity Plan Summary is 49 days overdue for review (due 1 Nov 2027).");
    const [privacy] = github.issuesOf("/privacy-policy");
    expect(privacy).toMatchObject({ state: "closed", labels: [REMINDER_LABEL] });
    expect(privacy!.comments).toEqual([
      "Privacy Policy was reviewed: last reviewed 20 Nov 2027, by Pat Example, Series 24; next review due 20 Nov 2028. Closing.",
    ]);
  });
});

describe("npm run reviews -- --remind", () => {
  it("opens one issue per overdue legal page with the workflow's token, and adds nothing when run again the same day", async () => {
    const github = new FakeGitHub();
    const served = await github.serve();
    const run = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, ["scripts/reviews.ts", "--on", "2026-11-29", "--remind"], {
          cwd: projectRoot,
          env: { ...process.env, GITHUB_TOKEN: "ghs_test-token", GITHUB_REPOSITORY: github.repo, GITHUB_API_URL: served.url },
        });
        let [stdout, stderr] = ["", ""];
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("close", (code) => done({ code, stdout, stderr }));
      });
    try {
      const first = await run();
      expect(first.code, first.stderr).toBe(0);
      expect(github.issues.map((issue) => issue.title).sort()).toEqual([
        "Review due: Cookie Policy (/cookie-policy)",
        "Review due: Privacy Policy (/privacy-policy)",
        "Review due: Risk Disclosures (/risk-disclosures)",
        "Review due: Terms of Service (/terms-of-service)",
      ]);
      expect(github.issuesOf("/risk-disclosures")[0]!.body).toContain("Risk Disclosures is 318 days overdue for review (due 15 Jan 2026).");
      expect(new Set(github.requests.map((r) => r.authorization))).toEqual(new Set(["Bearer ghs_test-token"]));
      const asked = github.requests.length;
      const second = await run();
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("reviews: every reminder due today was already given");
      expect(github.requests.slice(asked).every((r) => r.method === "GET")).toBe(true);
      expect(github.issues.every((issue) => issue.comments.length === 0)).toBe(true);
    } finally {
      await served.stop();
    }
  });
});

describe("a material change, reminded", () => {
  it("opens the page's issue naming the fact that changed, once", async () => {
    const facts = (crd: string) => ({ brokerDealerCrd: crd });
    let ledger = recordApproval(
      emptyLedger(),
      "/business-continuity",
      "a".repeat(64),
      "Pat Example, Series 24",
      new Date("2027-03-01T15:00:00Z"),
      {
        review: "changed",
        facts: facts("000000"),
      },
    ).ledger;
    ledger = recordApproval(ledger, "/business-continuity", "b".repeat(64), "Pat Example, Series 24", new Date("2027-05-03T15:00:00Z"), {
      facts: facts("1234567"),
    }).ledger;
    const github = new FakeGitHub();
    const pages = [{ ...PAGES[0]!, text: "Fictive Securities LLC (CRD #1234567)\n" }];
    const run = (today: string) => remind(pageReviews(pages, ledger, policy, today, facts("1234567")), github.client());
    expect(await run("2027-05-04")).toEqual([
      "opened #1 for /business-continuity (step material: the broker-dealer's CRD number changed (000000 → 1234567))",
      "commented on #1 for /business-continuity (step 0)",
    ]);
    expect(github.issues[0]!.body).toContain(
      "Business Continuity Plan Summary is due for review now: the broker-dealer's CRD number changed (000000 → 1234567) since its last review.",
    );
    expect(await run("2027-05-04")).toEqual([]);
    expect(await run("2027-05-05")).toEqual([]);
  });
});
