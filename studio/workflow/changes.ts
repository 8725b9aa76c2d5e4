/**
 * What an entry changes on the site: the pages whose text on a revision is not approved in that
 * revision's own ledger (the gate the build applies), with the approved text on `main` beside it. The
 * publish rule and the principal's review both read it.
 */
import { textFileOf, unapprovedPages } from "../../lib/approval/ledger.ts";
import { frontMatterOf } from "../../src/build/content-files.ts";
import { formatDay } from "../../src/build/legal.ts";
import { buildOf } from "./builds.ts";
import { entryFile, type Entry } from "./entries.ts";
import { fileAt, ledgerAt } from "./at.ts";
import { reviewRuleSentence } from "./review-policy.ts";

export { fileAt, ledgerAt };

export interface PageChange {
  page: string;
  /** "new": never approved; "changed": differs from the approved text. */
  reason: "new" | "changed";
  sha256: string;
  text: string;
  /** The approved text on `main`, when there is one. */
  approved: string;
}

/** The pages of `revision` whose text its own ledger does not approve, by page path. */
export async function pageChanges(root: string, repo: string, revision: string): Promise<PageChange[]> {
  const { pages } = await buildOf(root, repo, revision);
  const list = Object.entries(pages)
    .map(([page, { sha256, text }]) => ({ page, sha256, text }))
    .sort((a, b) => a.page.localeCompare(b.page));
  return unapprovedPages(list, ledgerAt(repo, revision)).map(({ page, sha256, text, reason }) => ({
    page,
    reason,
    sha256,
    text,
    approved: fileAt(repo, "main", textFileOf(page)),
  }));
}

/** The pages a branch changes against `main` (approved or not; `main`: its commit, read once by the caller): what its review shows. */
export async function changedPages(
  root: string,
  repo: string,
  branch: string,
  main = "main",
): Promise<Array<PageChange & { approvedOnBranch: boolean }>> {
  const [branchBuild, mainBuild] = await Promise.all([buildOf(root, repo, branch), buildOf(root, repo, main)]);
  const ledger = ledgerAt(repo, branch);
  return Object.entries(branchBuild.pages)
    .filter(([page, { sha256 }]) => mainBuild.pages[page]?.sha256 !== sha256)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([page, { sha256, text }]) => ({
      page,
      sha256,
      text,
      reason: mainBuild.pages[page] ? ("changed" as const) : ("new" as const),
      approved: mainBuild.pages[page]?.text ?? "",
      approvedOnBranch: ledger.pages[page]?.sha256 === sha256,
    }));
}

/**
 * What an entry does to its document page, said first in its review: "Adds Fee Schedule, a new page at
 * /fee-schedule." or "Withdraws Fee Schedule: …"; null for an edit of the words (the pages below say it).
 */
export function documentChange(repo: string, entry: Pick<Entry, "collection" | "slug" | "branch">, main = "main"): string | null {
  const file = entryFile(entry.collection, entry.slug);
  if (!file || entry.collection === "landing") return null;
  const front = (revision: string) => {
    const text = fileAt(repo, revision, file);
    return text ? ((frontMatterOf(text) ?? {}) as { title?: unknown; withdrawn?: unknown }) : undefined;
  };
  const [before, after] = [front(main), front(entry.branch)];
  if (!after) return null;
  const title = String(after.title ?? entry.slug).trim();
  const withdrawn = (f: typeof after | undefined) =>
    f?.withdrawn === undefined || f.withdrawn === null || f.withdrawn === "" ? null : new Date(String(f.withdrawn));
  if (!before)
    return [
      `Adds ${title}, a new page at /${entry.slug}: nothing about it has been approved yet.`,
      reviewRuleSentence(repo, `/${entry.slug}`),
    ]
      .filter(Boolean)
      .join(" ");
  const [was, is] = [withdrawn(before), withdrawn(after)];
  if (is && !was)
    return `Withdraws ${title}: once published, /${entry.slug} says it was withdrawn on ${formatDay(is)}, and it leaves the disclosures index and the sitemap.`;
  if (was && !is) return `Restores ${title}: once published, /${entry.slug} shows the disclosure again, in the index and the sitemap.`;
  return null;
}
