/**
 * Reminders no one has to remember (issue 54): one GitHub issue per page whose review is overdue or due
 * within 30 days, labelled `review-due`, commented on at 30, 7 and 0 days before the due date and then
 * every 7 days while it is overdue, never twice for the same step (each step leaves a marker in what it
 * writes), and closed once the page's review is recorded. Run daily by records-daily.yml through
 * `npm run reviews -- --remind`; the clock is the caller's (`today`), so a test walks days in a loop.
 */
import { dayShort } from "../../lib/dates.ts";
import { lastReviewWritten, reviewSentence } from "../../lib/approval/review-report.ts";
import type { PageReview } from "../../lib/approval/reviews.ts";
import type { GitHub } from "./github.ts";

export const REMINDER_LABEL = "review-due";

/** Which reminder a page is at: "30", "7", "0" days before, then "overdue 7", "overdue 14"…; undefined when none is due. */
export function reminderStep(daysLeft: number): string | undefined {
  if (daysLeft > 30) return undefined;
  if (daysLeft > 7) return "30";
  if (daysLeft > 0) return "7";
  if (daysLeft > -7) return "0";
  return `overdue ${Math.floor(-daysLeft / 7) * 7}`;
}

/** What identifies a page's issue, and a step already said, in the text of the issue and its comments. */
const pageMarker = (page: string) => `<!-- review-due page=${page} -->`;
const stepMarker = (page: string, dueDay: string, step: string) => `<!-- review-reminder page=${page} due=${dueDay} step=${step} -->`;

interface Issue {
  number: number;
  title: string;
  body?: string | null;
  pull_request?: unknown;
}

function stepText(review: PageReview, step: string): string {
  if (step.startsWith("material: "))
    return `${review.title} is due for review now: ${step.slice("material: ".length)} since its last review.`;
  if (step.startsWith("overdue")) return `${review.title} is ${-review.daysLeft} days overdue for review (due ${dayShort(review.dueDay)}).`;
  if (step === "0" && review.daysLeft < 0) return `${review.title} is overdue for review since ${dayShort(review.dueDay)}.`;
  if (step === "0") return `${review.title} is due for review today, ${dayShort(review.dueDay)}.`;
  return `${review.title} is due for review in ${review.daysLeft} days, on ${dayShort(review.dueDay)}.`;
}

function saidFor(review: PageReview, step: string, runUrl: string): string {
  return [
    stepMarker(review.page, review.dueDay, step),
    stepText(review, step),
    "",
    `- ${reviewSentence(review)}.`,
    `- Last reviewed ${lastReviewWritten(review)}.`,
    `- A principal records it in the studio: Approvals → Reviews due → Start review (${review.page}); or an edit of the page, approved, is its review.`,
    ...(runUrl ? ["", `The run that found it: ${runUrl}`] : []),
  ].join("\n");
}

/** Every open issue with the label (pull requests aside), page after page of GitHub's list. */
async function openIssues(github: GitHub): Promise<Issue[]> {
  const issues: Issue[] = [];
  for (let page = 1; ; page++) {
    const { data } = await github.call<Issue[]>(
      "GET",
      `/repos/${github.repo}/issues?state=open&labels=${REMINDER_LABEL}&per_page=100&page=${page}`,
    );
    issues.push(...data.filter((issue) => !issue.pull_request));
    if (data.length < 100) return issues;
  }
}

async function commentsOf(github: GitHub, issue: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let page = 1; ; page++) {
    const { data } = await github.call<Array<{ body?: string | null }>>(
      "GET",
      `/repos/${github.repo}/issues/${issue}/comments?per_page=100&page=${page}`,
    );
    bodies.push(...data.map((comment) => comment.body ?? ""));
    if (data.length < 100) return bodies;
  }
}

/** What one run did, a line each: "opened #3 for /risk-disclosures (step 30)". */
export async function remind(reviews: PageReview[], github: GitHub): Promise<string[]> {
  const done: string[] = [];
  const label = await github.call("GET", `/repos/${github.repo}/labels/${REMINDER_LABEL}`, undefined, [200, 404]);
  if (label.status === 404)
    await github.call(
      "POST",
      `/repos/${github.repo}/labels`,
      { name: REMINDER_LABEL, color: "d93f0b", description: "A page's review under approvals/review-policy.yaml is due (npm run reviews)" },
      [201, 422],
    );
  const open = await openIssues(github);
  for (const review of reviews) {
    const issue = open.find((item) => (item.body ?? "").includes(pageMarker(review.page)));
    // A material change is said once, as soon as it is seen; the regular steps follow from the due date.
    const material = review.materialChanges ? `material: ${review.materialChanges.join("; ")}` : undefined;
    const regular = reminderStep(review.daysLeft);
    if (!material && !regular) {
      if (!issue) continue;
      // Reviewed (or the policy gave it longer): the issue has done its work.
      await github.call("POST", `/repos/${github.repo}/issues/${issue.number}/comments`, {
        body: `${review.title} was reviewed: last reviewed ${lastReviewWritten(review)}; next review due ${dayShort(review.dueDay)}. Closing.`,
      });
      await github.call("PATCH", `/repos/${github.repo}/issues/${issue.number}`, { state: "closed", state_reason: "completed" });
      done.push(`closed #${issue.number} for ${review.page} (reviewed)`);
      continue;
    }
    let number = issue?.number;
    let said = issue ? [issue.body ?? "", ...(await commentsOf(github, issue.number))] : [];
    for (const step of [material, regular].filter((s): s is string => s !== undefined)) {
      const marker = stepMarker(review.page, review.dueDay, step);
      if (said.some((body) => body.includes(marker))) continue;
      const text = saidFor(review, step, github.runUrl);
      if (number === undefined) {
        const created = await github.call<{ number: number; labels?: Array<{ name: string } | string> }>(
          "POST",
          `/repos/${github.repo}/issues`,
          {
            title: `Review due: ${review.title} (${review.page})`,
            body: `${pageMarker(review.page)}\n${text}`,
            labels: [REMINDER_LABEL],
          },
        );
        const labels = (created.data.labels ?? []).map((l) => (typeof l === "string" ? l : l.name));
        if (!labels.includes(REMINDER_LABEL))
          await github.call("POST", `/repos/${github.repo}/issues/${created.data.number}/labels`, { labels: [REMINDER_LABEL] });
        number = created.data.number;
        done.push(`opened #${number} for ${review.page} (step ${step})`);
      } else {
        await github.call("POST", `/repos/${github.repo}/issues/${number}/comments`, { body: text });
        done.push(`commented on #${number} for ${review.page} (step ${step})`);
      }
      said = [...said, text];
    }
  }
  // A page withdrawn (or removed) since its issue was opened is no longer reviewed.
  for (const issue of open) {
    const page = /<!-- review-due page=(\S+) -->/.exec(issue.body ?? "")?.[1];
    if (!page || reviews.some((review) => review.page === page)) continue;
    await github.call("POST", `/repos/${github.repo}/issues/${issue.number}/comments`, {
      body: `${page} is no longer a page of the site in force, so it is not reviewed. Closing.`,
    });
    await github.call("PATCH", `/repos/${github.repo}/issues/${issue.number}`, { state: "closed", state_reason: "not_planned" });
    done.push(`closed #${issue.number} for ${page} (no longer a page)`);
  }
  return done;
}
