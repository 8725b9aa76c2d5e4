/**
 * The review policy and the pages it covers as `main` (or any revision) holds them, read from git alone, so
 * that the board opens at once (issue 54, decision 0056).
 */
import { durationWritten, parseReviewPolicy, policyTimeZone, POLICY_FILE, ruleOf, type ReviewedPage } from "../../lib/approval/reviews.ts";
import { parseRoster, ROSTER_FILE, type RosterEntry } from "../../lib/approval/roster.ts";
import { pageNamer, type DocumentRef } from "../../src/build/documents.ts";
import { DOCUMENT_COLLECTIONS } from "../../src/content/schemas/files.ts";
import { frontMatterOf } from "../../src/build/content-files.ts";
import { StudioRefusal } from "../git.ts";
import { textFileOf } from "../../lib/approval/ledger.ts";
import { commitOf, fileAt, ledgerAt, readAt } from "./at.ts";

/** The documents of a revision, read from git (no build; of a commit named by its hash, kept: git.ts): the board opens at once. */
export function documentsAt(repo: string, revision: string): Array<DocumentRef & { lastUpdated?: string }> {
  return Object.entries(DOCUMENT_COLLECTIONS).flatMap(([collection, { folder }]) => {
    const names = readAt(repo, "ls-tree", "--name-only", `${revision}:${folder}`);
    if (names === null) return [];
    return names
      .split("\n")
      .filter((name) => name.endsWith(".md"))
      .map((name) => {
        const front = (frontMatterOf(fileAt(repo, revision, `${folder}/${name}`)) ?? {}) as Record<string, unknown>;
        const day = (value: unknown) =>
          value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === "string" && value ? value : undefined;
        return {
          slug: name.slice(0, -".md".length),
          collection: collection as DocumentRef["collection"],
          file: `${folder}/${name}`,
          title: String(front.title ?? name),
          order: Number(front.order ?? 99),
          withdrawn: day(front.withdrawn) ? new Date(String(day(front.withdrawn))) : undefined,
          lastUpdated: day(front.lastUpdated),
        };
      });
  });
}

/** The pages in force on a revision, as `npm run reviews` lists them: those its ledger approves, less the withdrawn disclosures. */
export function reviewedPagesAt(repo: string, revisionNow: string): ReviewedPage[] {
  const revision = commitOf(repo, revisionNow);
  const documents = documentsAt(repo, revision);
  const name = pageNamer(documents);
  const withdrawn = new Set(documents.filter((d) => d.withdrawn).map((d) => `/${d.slug}`));
  return Object.keys(ledgerAt(repo, revision).pages)
    .filter((page) => !withdrawn.has(page))
    .sort()
    .map((page) => ({
      page,
      title: name(page),
      lastUpdated: documents.find((d) => `/${d.slug}` === page)?.lastUpdated,
      text: fileAt(repo, revision, textFileOf(page)) || undefined,
    }));
}

/** The review policy of a revision, checked against its pages and the roster; throws naming the file and the line. */
export function policyAt(repo: string, revisionNow: string, roster: RosterEntry[]) {
  const revision = commitOf(repo, revisionNow);
  const text = fileAt(repo, revision, POLICY_FILE);
  if (!text) throw new StudioRefusal(`${POLICY_FILE} is missing on main: compliance adds it (docs/compliance.md, "Review dates").`);
  return parseReviewPolicy(text, { pages: Object.keys(ledgerAt(repo, revision).pages), roster });
}

/**
 * "Once published, it is reviewed every 12 months (…); owner: Compliance.": the rule of the review policy
 * on `main` a page added by an entry will be reviewed under (the default, unless the policy names it); null
 * when the policy cannot be read (the build says why).
 */
export function reviewRuleSentence(repo: string, page: string): string | null {
  try {
    const main = commitOf(repo, "main");
    const roster = fileAt(repo, main, ROSTER_FILE);
    const policy = policyAt(repo, main, roster ? parseRoster(roster) : []);
    const named = Object.hasOwn(policy.pages, page);
    const rule = ruleOf(policy, page);
    return `Once published, it is reviewed ${durationWritten(rule.interval)} (${named ? "" : "the review policy's default: "}${rule.reason}); owner: ${rule.owner}.`;
  } catch {
    return null;
  }
}

/** The firm's zone on a revision (read even when the rest of the policy would not parse). */
export const zoneAt = (repo: string, revision: string) => policyTimeZone(fileAt(repo, revision, POLICY_FILE) || undefined);
