/**
 * The approval itself: the ledger entries and the approved texts of every unapproved page of the
 * entry's branch, as one commit on the branch whose author is the principal (git plumbing, no checkout,
 * so decap-server's own checkouts are never disturbed). Compare-and-swap on the head the principal
 * reviewed: a branch that moved since is refused, so what is approved is what was reviewed.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_FILE, recordApproval, serializeLedger, textFileOf, type ApprovalDetails } from "../../lib/approval/ledger.ts";
import { dayIn, policyTimeZone, POLICY_FILE, REVIEW_LINE_PREFIX, withReviewLine, type ReviewKind } from "../../lib/approval/reviews.ts";
import { pageTextHash } from "../../lib/approval/text.ts";
import { monthWritten } from "../../lib/dates.ts";
import { htmlFileOf } from "../../lib/pages.ts";
import { pageParts, readableLines, type Line } from "../../lib/words.ts";
import { buildOf } from "./builds.ts";
import { factsOf } from "../../lib/approval/facts.ts";
import { site } from "../../src/config/site.ts";
import { git, STUDIO_COMMITTER, StudioRefusal } from "../git.ts";
import { STUDIO_EVENT_TRAILER } from "./entries.ts";
import { fileAt, ledgerAt, pageChanges, type PageChange } from "./changes.ts";
import { runGit } from "../git-process/run.ts";

export interface Approver {
  /** As recorded: the roster's name and first registration (server mode), or as typed (loopback). */
  name: string;
  registration: string;
  email: string;
  crd?: string;
}

/**
 * How the ledger records a principal's approval or review of `head`: "Pat Example, Series 24, CRD 1000001",
 * the roster's record (server mode), the commit, and the site's material facts as they are.
 */
export function recordedAs(approver: Approver, head: string): { approvedBy: string; details: ApprovalDetails } {
  const approvedBy = [approver.name, approver.registration, ...(approver.crd ? [`CRD ${approver.crd}`] : [])].join(", ");
  return {
    approvedBy,
    details: {
      ...(approver.crd
        ? { principal: { email: approver.email, name: approver.name, crd: approver.crd, registration: approver.registration } }
        : {}),
      commit: head,
      facts: factsOf(site),
    },
  };
}

export interface Approved {
  commit: string;
  /** The pages approved, each with the text and hash recorded (a review's with its new "Last reviewed" line). */
  pages: Array<PageChange & { review?: ReviewKind | undefined }>;
}

/** A built page's HTML, or "" when the build has no such page. */
function htmlOf(site: string, page: string): string {
  const file = `${site}/${htmlFileOf(page)}`;
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/**
 * Whether a page's own words differ between two builds of it (decision 0044's cut at `<main>`; the whole
 * page when it cannot be cut), its "Last reviewed" line aside: a new page's always do. What makes an
 * approval a review (decision 0056); the shared parts, a rule's change or the line alone do not.
 */
export function ownWordsChanged(beforeHtml: string, afterHtml: string): boolean {
  if (!beforeHtml) return true;
  const [before, after] = [pageParts(beforeHtml), pageParts(afterHtml)];
  const words = (lines: readonly Line[]) =>
    lines.filter((line) => !line.text.startsWith(REVIEW_LINE_PREFIX)).map((line) => `${line.where ?? ""}\u0000${line.text}`);
  const [a, b] =
    before && after ? [words(before.own), words(after.own)] : [words(readableLines(beforeHtml)), words(readableLines(afterHtml))];
  return a.length !== b.length || a.some((line, i) => line !== b[i]);
}

/**
 * The pages an approval records, each a review ("changed") when its own words changed from `main`'s:
 * a review moves a document's "Last reviewed" line to the month of `now` in the firm's zone, so the
 * text approved is the text with that line, the one the next build draws from the ledger.
 */
async function approvedPages(root: string, repo: string, head: string, changes: PageChange[], now: Date): Promise<Approved["pages"]> {
  const [branchBuild, mainBuild] = await Promise.all([buildOf(root, repo, head), buildOf(root, repo, "main")]);
  const month = monthWritten(dayIn(now, policyTimeZone(fileAt(repo, head, POLICY_FILE))));
  return changes.map((change) => {
    if (!ownWordsChanged(htmlOf(mainBuild.site, change.page), htmlOf(branchBuild.site, change.page))) return change;
    const text = withReviewLine(change.text, month);
    return { ...change, text, sha256: pageTextHash(text), review: "changed" as const };
  });
}

export async function recordApprovalCommit(
  root: string,
  repo: string,
  branch: string,
  expectedHead: string,
  approver: Approver,
  extra: Pick<ApprovalDetails, "selfApprovalException" | "publishAt"> = {},
  now = new Date(),
): Promise<Approved> {
  const head = git(repo, "rev-parse", `refs/heads/${branch}`);
  if (head !== expectedHead)
    throw new StudioRefusal("The entry changed since this page was loaded: reload it and review the change again.");
  const found = await pageChanges(root, repo, head);
  if (found.length === 0) throw new StudioRefusal("Nothing to approve: every page of this entry is approved.");
  const changes = await approvedPages(root, repo, head, found, now);
  const { approvedBy, details: recorded } = recordedAs(approver, head);
  const details: ApprovalDetails = { ...recorded, ...extra };
  let ledger = ledgerAt(repo, head);
  for (const change of changes)
    ledger = recordApproval(ledger, change.page, change.sha256, approvedBy, now, {
      ...details,
      ...(change.review ? { review: change.review } : {}),
    }).ledger;
  const index = join(root, ".studio", `index-${process.pid}-${Date.now()}`);
  const run = (args: string[], input?: string, extra: Record<string, string> = {}) =>
    runGit(args, { cwd: repo, env: { ...process.env, GIT_INDEX_FILE: index, ...extra }, input }).trim();
  try {
    run(["read-tree", head]);
    const files = [[LEDGER_FILE, serializeLedger(ledger)], ...changes.map((c) => [textFileOf(c.page), c.text])] as Array<[string, string]>;
    for (const [path, content] of files) {
      const blob = run(["hash-object", "-w", "--stdin"], content);
      run(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
    }
    const tree = run(["write-tree"]);
    const pages = changes.map((c) => c.page).join(", ");
    const message = `Approve ${pages} for publication\n\nApproved by ${approvedBy} in the content studio.\n\n${STUDIO_EVENT_TRAILER}: approval`;
    const commit = run(["commit-tree", tree, "-p", head, "-m", message], undefined, {
      GIT_AUTHOR_NAME: approver.name,
      GIT_AUTHOR_EMAIL: approver.email,
      GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
      GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
    });
    run(["update-ref", `refs/heads/${branch}`, commit, head]);
    return { commit, pages: changes };
  } finally {
    rmSync(index, { force: true });
  }
}

/** The e-mail a typed approval is recorded under (loopback): made from the registration, never a real address. */
export const typedApproverEmail = (registration: string) =>
  `${
    registration
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .toLowerCase() || "principal"
  }@principal.invalid`;
