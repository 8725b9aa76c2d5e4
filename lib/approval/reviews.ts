/**
 * Review dates a principal keeps (FINRA 4370(b), 3110's written supervisory procedures, 2210(d)(1)):
 * the review policy compliance owns (approvals/review-policy.yaml), the reviews the ledger records,
 * and each page's due date and status. Pure functions but for `readReviewPolicy`: the clock, the
 * ledger and the pages are passed in by the build, `npm run reviews`, the studio and the records.
 *
 * Days are plain dates ("2026-11-29") in the firm's time zone (the policy's `timeZone`), so that a
 * review at 23:30 in New York is that day's, whatever the machine's zone; durations are added to
 * plain dates (a month after 31 January is 28 or 29 February).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isMap, isScalar, LineCounter, parse as parseYaml, parseDocument, type Document } from "yaml";
import { z } from "zod";
import type { Approval, Ledger } from "./ledger.ts";
import type { RosterEntry } from "./roster.ts";
import { factChanges, type Facts } from "./facts.ts";

export const POLICY_FILE = "approvals/review-policy.yaml";
/** The firm's time zone when the policy names none. */
export const DEFAULT_TIME_ZONE = "America/New_York";
/** A review due within this many days is "due soon". */
export const DUE_SOON_DAYS = 30;

/** What kind of review an approval was: a principal's "Reviewed, no change", or an approval of changed words. */
export const REVIEW_KINDS = ["no change", "changed"] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  /** As written: "P12M". */
  text: string;
}

/** ISO 8601 durations of whole days and more ("P12M", "P1Y", "P6M", "P90D"); undefined when it is not one. */
export function parseDuration(text: string): Duration | undefined {
  const match = /^P(?:(\d{1,4})Y)?(?:(\d{1,4})M)?(?:(\d{1,4})W)?(?:(\d{1,5})D)?$/.exec(text);
  if (!match || text === "P") return undefined;
  const [years, months, weeks, days] = match.slice(1).map((n) => Number(n ?? 0)) as [number, number, number, number];
  if (years + months + weeks + days === 0) return undefined;
  return { years, months, weeks, days, text };
}

/** "every 12 months", "every year", "every 90 days": a policy's interval for people. */
export function durationWritten({ years, months, weeks, days, text }: Duration): string {
  const parts = [
    [years, "year"],
    [months, "month"],
    [weeks, "week"],
    [days, "day"],
  ].filter(([n]) => n !== 0) as Array<[number, string]>;
  if (parts.length !== 1) return `every ${text}`;
  const [n, unit] = parts[0]!;
  return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const dayOfUtc = (date: Date) => date.toISOString().slice(0, 10);

/** A plain date plus a duration: months first (clamped to the month's last day), then weeks and days. */
export function addDuration(day: string, duration: Duration): string {
  const [, y, m, d] = DAY_PATTERN.exec(day)!.map(Number) as [number, number, number, number];
  const monthIndex = m - 1 + duration.months + duration.years * 12;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOfUtc(new Date(Date.UTC(year, month, Math.min(d, lastDay) + duration.weeks * 7 + duration.days)));
}

/** Days from `from` to `to` (plain dates); negative when `to` is earlier. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The plain date of an instant in a time zone: "2026-11-30T03:00:00Z" in America/New_York → "2026-11-29". */
export function dayIn(at: string | Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(at));
}

/** Whether Intl knows the zone ("America/New_York", "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return /\w/.test(name);
  } catch {
    return false;
  }
}

export interface PolicyRule {
  interval: Duration;
  /** A role ("Compliance") or a person of the roster, by e-mail. */
  owner: string;
  /** Why this interval: "FINRA 4370(b)". */
  reason: string;
}

export interface ReviewPolicy {
  timeZone: string;
  /** For a page the policy does not name (a disclosure added later). */
  default: PolicyRule;
  pages: Record<string, PolicyRule>;
}

const ruleSchema = z.strictObject({
  interval: z.string({ error: "an ISO 8601 duration such as P12M" }),
  owner: z.string({ error: 'a role ("Compliance") or a person of the roster, by e-mail' }).trim().min(1),
  reason: z.string({ error: 'why, e.g. "FINRA 4370(b)"' }).trim().min(1),
});

const policySchema = z.strictObject({
  timeZone: z.string().optional(),
  default: ruleSchema,
  pages: z.record(z.string(), ruleSchema),
});

/** The line (1-based) where the deepest existing part of `path` is named: its key in the map that holds it. */
function lineOf(doc: Document, lines: LineCounter, path: ReadonlyArray<PropertyKey>): number {
  for (let n = path.length; n > 0; n--) {
    const at = path.slice(0, n) as Array<string | number>;
    const parent = n === 1 ? doc.contents : doc.getIn(at.slice(0, -1), true);
    if (!isMap(parent)) continue;
    const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === at.at(-1));
    const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
    if (range) return lines.linePos(range[0]).line;
  }
  return 1;
}

export interface PolicyContext {
  /** Every page the site builds ("/", "/privacy-policy"…). */
  pages: Iterable<string>;
  roster: RosterEntry[];
}

/**
 * Parses the review policy; throws one message with a line per problem, each naming the file and the
 * line ("approvals/review-policy.yaml:12: /pricing: no such page…").
 */
export function parseReviewPolicy(text: string, context: PolicyContext, file = POLICY_FILE): ReviewPolicy {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new Error(doc.errors.map((e) => `${file}:${lines.linePos(e.pos[0]).line}: not YAML (${e.message.split("\n")[0]})`).join("\n"));
  }
  const problems: string[] = [];
  const result = policySchema.safeParse(doc.toJS());
  if (!result.success) {
    for (const issue of result.error.issues) {
      const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
      for (const key of keys) {
        const path = key === undefined ? issue.path : [...issue.path, key];
        const named = path.map(String).join(".") || "(top)";
        problems.push(`${file}:${lineOf(doc, lines, path)}: ${named}: ${key === undefined ? issue.message : "not a field of the policy"}`);
      }
    }
    throw new Error(problems.join("\n"));
  }
  const data = result.data;
  const known = new Set(context.pages);
  const emails = new Set(context.roster.map((entry) => entry.email));
  const timeZone = data.timeZone ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone))
    problems.push(`${file}:${lineOf(doc, lines, ["timeZone"])}: timeZone: "${timeZone}" is not a time zone (e.g. America/New_York)`);
  const rule = (raw: z.infer<typeof ruleSchema>, path: string[]): PolicyRule | undefined => {
    const interval = parseDuration(raw.interval);
    let ok = true;
    if (!interval) {
      problems.push(
        `${file}:${lineOf(doc, lines, [...path, "interval"])}: ${path.join(".")}.interval: "${raw.interval}" is not an ISO 8601 duration of days or more (P12M, P6M, P1Y, P90D)`,
      );
      ok = false;
    }
    if (raw.owner.includes("@") && !emails.has(raw.owner.toLowerCase())) {
      problems.push(
        `${file}:${lineOf(doc, lines, [...path, "owner"])}: ${path.join(".")}.owner: ${raw.owner} is not in approvals/roster.json`,
      );
      ok = false;
    }
    return ok && interval ? { interval, owner: raw.owner, reason: raw.reason } : undefined;
  };
  const fallback = rule(data.default, ["default"]);
  const pages: Record<string, PolicyRule> = {};
  for (const [page, raw] of Object.entries(data.pages)) {
    if (!known.has(page)) {
      problems.push(
        `${file}:${lineOf(doc, lines, ["pages", page])}: pages: ${page} is not a page of the site (its pages: ${[...known].sort().join(", ")})`,
      );
      continue;
    }
    const made = rule(raw, ["pages", page]);
    if (made) pages[page] = made;
  }
  if (problems.length > 0 || !fallback) throw new Error(problems.join("\n"));
  return { timeZone, default: fallback, pages };
}

/** The project's review policy, checked against its pages and roster; throws naming the file and the line. */
export function readReviewPolicy(root: string, context: PolicyContext): ReviewPolicy {
  const file = join(root, POLICY_FILE);
  if (!existsSync(file)) throw new Error(`${POLICY_FILE}: missing; the review policy names each page's review interval, owner and reason`);
  return parseReviewPolicy(readFileSync(file, "utf8"), context);
}

/**
 * The policy's time zone, read without checking the rest (the build checks it): what a preview build's
 * key and the studio's preview pane date reviews in. The default when the text names none or is not YAML.
 */
export function policyTimeZone(text: string | undefined): string {
  try {
    const zone = (parseYaml(text ?? "") as { timeZone?: unknown } | null)?.timeZone;
    return typeof zone === "string" && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

export const ruleOf = (policy: ReviewPolicy, page: string): PolicyRule => policy.pages[page] ?? policy.default;

export interface Review {
  /** When, in UTC (ISO 8601), as the ledger has it. */
  on: string;
  /** The site's material facts the review was made with (lib/approval/facts.ts), when the ledger records them. */
  facts?: Facts | undefined;
  /** The principal, as the ledger names them ("Pat Example, Series 24"). */
  by: string;
  kind: ReviewKind;
  commit?: string | undefined;
}

/** The latest review the ledger records for a page (an approval marked as one), if any. */
export function lastReviewOf(ledger: Ledger, page: string): Review | undefined {
  const entry = ledger.pages[page];
  if (!entry) return undefined;
  const reviews = [...entry.history, entry].filter((a): a is Approval & { review: ReviewKind } => a.review !== undefined);
  const last = reviews.sort((a, b) => a.approvedOn.localeCompare(b.approvedOn)).at(-1);
  return last && { on: last.approvedOn, by: last.approvedBy, kind: last.review, commit: last.commit, facts: last.facts };
}

/**
 * The day each page was last reviewed, in the firm's zone, for the pages that show it ("Last reviewed"
 * on the documents): what the build draws, and what a preview build's pages are keyed on (decision 0056).
 */
export function reviewDays(ledger: Ledger, pages: Iterable<string>, timeZone: string): Record<string, string> {
  const days: Record<string, string> = {};
  for (const page of [...pages].sort()) {
    const review = lastReviewOf(ledger, page);
    if (review) days[page] = dayIn(review.on, timeZone);
  }
  return days;
}

export type ReviewStatus = "overdue" | "due soon" | "ok";

export interface PageReview {
  page: string;
  title: string;
  rule: PolicyRule;
  /** The plain date of the last review, in the firm's zone. */
  lastDay: string;
  /** The review, when the ledger records one; otherwise the last review is counted from `since`. */
  review?: Review | undefined;
  /** What `lastDay` was taken from when the ledger records no review. */
  since?: "last updated" | "first approval" | undefined;
  dueDay: string;
  /** Days from today to the due date (negative: overdue). */
  daysLeft: number;
  status: ReviewStatus;
  /** A fact the page shows changed in the site's configuration since its last review: due at once (item 8). */
  materialChanges?: string[] | undefined;
}

export interface ReviewedPage {
  page: string;
  title: string;
  /** The document's "Last updated" (YYYY-MM-DD), for a page never reviewed since reviews were recorded. */
  lastUpdated?: string | undefined;
  /** Its approved text, to tell which of the site's facts it shows. */
  text?: string | undefined;
}

const sameFacts = (a: Facts, b: Facts) => Object.keys(b).every((key) => a[key as keyof Facts] === b[key as keyof Facts]);
const byTime = (a: Approval, b: Approval) => a.approvedOn.localeCompare(b.approvedOn);

/**
 * Each page's last review, due date and status on `today` (a plain date in the policy's zone). With the
 * site's material facts as they are now, a page that shows one changed since its last review (or, never
 * reviewed, since its first approval that recorded them) is due today.
 */
export function pageReviews(pages: ReviewedPage[], ledger: Ledger, policy: ReviewPolicy, today: string, facts?: Facts): PageReview[] {
  return pages.map(({ page, title, lastUpdated, text }) => {
    const rule = ruleOf(policy, page);
    const review = lastReviewOf(ledger, page);
    const entry = ledger.pages[page];
    const firstApproval = entry ? (entry.history[0] ?? entry).approvedOn : undefined;
    const lastDay = review
      ? dayIn(review.on, policy.timeZone)
      : (lastUpdated ?? (firstApproval ? dayIn(firstApproval, policy.timeZone) : today));
    const since = review ? undefined : lastUpdated ? ("last updated" as const) : ("first approval" as const);
    const baseline = review?.facts ?? (entry && [...entry.history, entry].sort(byTime).find((a) => a.facts)?.facts);
    const materialChanges = facts ? factChanges(baseline, facts, text ?? "") : [];
    const regular = addDuration(lastDay, rule.interval);
    // Due the day the changed facts were first approved on the page (a stable date for the reminders), or today.
    const changedOn = entry && [...entry.history, entry].filter((a) => a.facts && sameFacts(a.facts, facts!)).sort(byTime)[0]?.approvedOn;
    const changedDay = changedOn ? dayIn(changedOn, policy.timeZone) : today;
    const dueDay = materialChanges.length && regular > changedDay ? changedDay : regular;
    const daysLeft = daysBetween(today, dueDay);
    const status: ReviewStatus = daysLeft < 0 ? "overdue" : daysLeft <= DUE_SOON_DAYS ? "due soon" : "ok";
    return { page, title, rule, lastDay, review, since, dueDay, daysLeft, status, ...(materialChanges.length ? { materialChanges } : {}) };
  });
}

/** The line a document shows, and its approved text holds: "Last reviewed: November 2026". */
export const REVIEW_LINE_PREFIX = "Last reviewed: ";

/**
 * A page's text with its "Last reviewed" line saying `month` ("November 2026"): the text a review
 * approves, since the review moves the line. A text without the line (the landing page) is returned as it is.
 */
export function withReviewLine(text: string, month: string): string {
  const lines = text.split("\n");
  const at = lines.flatMap((line, i) => (line.startsWith(REVIEW_LINE_PREFIX) ? [i] : []));
  if (at.length === 0) return text;
  if (at.length > 1) throw new Error(`the page's text has ${at.length} "${REVIEW_LINE_PREFIX}" lines; a document has one`);
  lines[at[0]!] = `${REVIEW_LINE_PREFIX}${month}`;
  return lines.join("\n");
}
