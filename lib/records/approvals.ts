/**
 * Who approved a page's words and who wrote them, as git holds it at a commit (FINRA Rule 2210(b)(4):
 * the approver's name and the date, kept with each version). The ledger at the commit names the
 * principal (with the roster's CRD number when the approval was made in the studio) and the entry's
 * reviewed commit; the entry's own commits, up to that reviewed commit, name its editors. A capture
 * writes this into its manifest; the records pages read it back for captures made before it did.
 */
import { execFileSync } from "node:child_process";
import { LEDGER_FILE, parseLedger, type Ledger } from "../approval/ledger.ts";
import type { ManifestApproval, ManifestPublished } from "./manifest.ts";

/** The trailer the studio puts on commits that are its own events (approvals, publishing), not an editor's edit. */
export const STUDIO_EVENT_TRAILER = "Studio-Event";

function git(repo: string, ...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

/** The ledger as committed at a revision; undefined when the repository does not have it there. */
export function ledgerAtCommit(repo: string, revision: string): Ledger | undefined {
  const text = git(repo, "show", `${revision}:${LEDGER_FILE}`);
  if (text === undefined) return undefined;
  try {
    return parseLedger(text);
  } catch {
    return undefined;
  }
}

/**
 * The editors of an entry whose reviewed head is `reviewed`, as merged into `head`: the authors of its
 * commits that the merge brought in (the merge's first parent is main before it), the studio's own
 * event commits left out. Undefined when the history cannot say (a shallow clone, a commit not merged).
 */
export function editorsOf(repo: string, reviewed: string, head: string): Array<{ name: string; email: string }> | undefined {
  const merges = git(repo, "rev-list", "--ancestry-path", "--merges", `${reviewed}..${head}`);
  if (!merges) return undefined;
  // The merge that brought the entry in is the oldest whose first parent does not contain the reviewed commit.
  const merge = merges
    .split("\n")
    .reverse()
    .find((commit) => git(repo, "merge-base", "--is-ancestor", reviewed, `${commit}^1`) === undefined);
  if (!merge) return undefined;
  const format = `%an%x1f%ae%x1f%(trailers:key=${STUDIO_EVENT_TRAILER},valueonly)`;
  const log = git(repo, "log", "--no-merges", `--format=${format}%x1e`, reviewed, `^${merge}^1`);
  if (log === undefined) return undefined;
  const people = new Map<string, { name: string; email: string }>();
  for (const record of log.split("\x1e")) {
    const [name, email, event] = record.trim().split("\x1f");
    if (name && email && !event?.trim()) people.set(email.toLowerCase(), { name, email: email.toLowerCase() });
  }
  return [...people.values()];
}

/** The approvals in force at `commit` for these pages, each with its principal and editors where the record has them. */
export function approvalsAt(repo: string, commit: string, pages: string[], ledger = ledgerAtCommit(repo, commit)): ManifestApproval[] {
  const editors = new Map<string, ReturnType<typeof editorsOf>>();
  return pages.flatMap((page) => {
    const approval = ledger?.pages[page];
    if (!approval) return [];
    const { sha256, approvedBy, approvedOn, principal, commit: reviewed } = approval;
    if (reviewed && !editors.has(reviewed)) editors.set(reviewed, editorsOf(repo, reviewed, commit));
    const editedBy = reviewed ? editors.get(reviewed) : undefined;
    return [
      {
        page,
        sha256,
        approvedBy,
        approvedOn,
        ...(principal ? { principal } : {}),
        ...(reviewed ? { commit: reviewed } : {}),
        ...(editedBy ? { editedBy } : {}),
      },
    ];
  });
}

/** The trailer of a publish the studio's timer carried out at a principal's moment: "<instant> <zone>". */
export const SCHEDULED_TRAILER = "Studio-Scheduled-At";

/**
 * The studio's publish `commit` is (its `Studio-Event: publish` trailer): when it went live, who
 * published it (for a scheduled one, the principal who scheduled it), the approved head it merged, and
 * the scheduled moment; undefined for any other commit.
 */
export function publishedAt(repo: string, commit: string): ManifestPublished | undefined {
  const format = `%cI%x1f%an%x1f%P%x1f%(trailers:key=${STUDIO_EVENT_TRAILER},valueonly)%x1f%(trailers:key=${SCHEDULED_TRAILER},valueonly)`;
  const [when = "", by = "", parents = "", event = "", scheduled = ""] = (git(repo, "log", "-1", `--format=${format}`, commit) ?? "")
    .split("\x1f")
    .map((v) => v.trim());
  const approval = parents.split(" ")[1];
  if (event !== "publish" || !when || !by || !approval) return undefined;
  const [scheduledAt, timeZone] = scheduled.split(" ");
  return {
    wentLive: new Date(when).toISOString(),
    by,
    approval,
    ...(scheduledAt && timeZone ? { scheduledAt: new Date(scheduledAt).toISOString(), timeZone } : {}),
  };
}
