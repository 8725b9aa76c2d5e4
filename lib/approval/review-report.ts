/**
 * What is due, for people: the project's pages as `npm run reviews`, the studio's "Reviews due" and the
 * reminders read them (lib/approval/reviews.ts computes; this reads the files and writes the sentences).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dayShort } from "../dates.ts";
import { documentFiles, frontMatterOf } from "../../src/build/content-files.ts";
import { pageNamer } from "../../src/build/documents.ts";
import { pageSources } from "./sources.ts";
import { readRoster } from "./roster.ts";
import { readLedger } from "./files.ts";
import { textFileOf } from "./ledger.ts";
import { factsOf } from "./facts.ts";
import { site } from "../../src/config/site.ts";
import { dayIn, durationWritten, pageReviews, readReviewPolicy, type PageReview, type ReviewedPage, type ReviewPolicy } from "./reviews.ts";

/** Every page of the project in force (a withdrawn disclosure is not reviewed), with its title and "Last updated". */
export function reviewedPagesOf(root: string): ReviewedPage[] {
  const documents = documentFiles(root);
  const name = pageNamer(documents);
  const withdrawn = new Set(documents.filter((doc) => doc.withdrawn).map((doc) => `/${doc.slug}`));
  return Object.keys(pageSources(root))
    .filter((page) => !withdrawn.has(page))
    .map((page) => {
      const doc = documents.find((d) => `/${d.slug}` === page);
      const front = doc ? (frontMatterOf(readFileSync(join(root, doc.file), "utf8")) as { lastUpdated?: unknown }) : undefined;
      const updated = front?.lastUpdated;
      const lastUpdated = updated instanceof Date ? updated.toISOString().slice(0, 10) : typeof updated === "string" ? updated : undefined;
      const textFile = join(root, textFileOf(page));
      return { page, title: name(page), lastUpdated, text: existsSync(textFile) ? readFileSync(textFile, "utf8") : undefined };
    });
}

/** The project's policy and every page's review on a day ("YYYY-MM-DD"), or on an instant's day in the policy's zone (default: now). */
export function projectReviews(root: string, on?: string | Date): { policy: ReviewPolicy; today: string; reviews: PageReview[] } {
  const pages = reviewedPagesOf(root);
  const policy = readReviewPolicy(root, { pages: Object.keys(pageSources(root)), roster: readRoster(root) });
  const today = typeof on === "string" ? on : dayIn(on ?? new Date(), policy.timeZone);
  return { policy, today, reviews: pageReviews(pages, readLedger(root), policy, today, factsOf(site)) };
}

/** "FINRA 4370(b), every 12 months; owner: Compliance". */
export const ruleWritten = ({ rule }: PageReview) => `${rule.reason}, ${durationWritten(rule.interval)}; owner: ${rule.owner}`;

/**
 * "Business Continuity Plan Summary: review due 1 Nov 2027 (FINRA 4370(b), every 12 months); owner: Compliance";
 * a material change first: "…: review due now, since the broker-dealer's CRD number changed (000000 → 1234567) (…)".
 */
export function reviewSentence(review: PageReview): string {
  const when = review.materialChanges
    ? `review due now, since ${review.materialChanges.join(" and ")}`
    : review.status === "overdue"
      ? `review overdue since ${dayShort(review.dueDay)}`
      : `review due ${dayShort(review.dueDay)}`;
  const { rule } = review;
  return `${review.title}: ${when} (${rule.reason}, ${durationWritten(rule.interval)}); owner: ${rule.owner}`;
}

/** "15 Jan 2025, by Pat Example, Series 24", or where the date was taken from when no review is recorded. */
export function lastReviewWritten(review: PageReview): string {
  if (review.review) return `${dayShort(review.lastDay)}, by ${review.review.by}`;
  return `${dayShort(review.lastDay)} (no review recorded: counted from its ${review.since === "last updated" ? '"Last updated"' : "first approval"})`;
}

const ORDER = { overdue: 0, "due soon": 1, ok: 2 } as const;

/** Overdue first, then due soon, then the rest, each by due date. */
export const byUrgency = (reviews: PageReview[]) =>
  [...reviews].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.dueDay.localeCompare(b.dueDay) || a.page.localeCompare(b.page));

/** The report as Markdown: a table of every page, then the policy's zone and the day it was made for. */
export function reviewsMarkdown(reviews: PageReview[], today: string, timeZone: string): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  const overdue = reviews.filter((r) => r.status === "overdue").length;
  const soon = reviews.filter((r) => r.status === "due soon").length;
  return [
    "# Page reviews",
    "",
    `As of ${dayShort(today)} (${timeZone}): ${overdue} overdue, ${soon} due within 30 days, ${reviews.length - overdue - soon} ok.`,
    "",
    "| Status | Page | Last reviewed | Due | Policy |",
    "| --- | --- | --- | --- | --- |",
    ...byUrgency(reviews).map(
      (r) =>
        `| ${r.status} | ${cell(r.title)} (\`${r.page}\`) | ${cell(lastReviewWritten(r))} | ${dayShort(r.dueDay)} | ${cell(ruleWritten(r))} |`,
    ),
    "",
  ].join("\n");
}
