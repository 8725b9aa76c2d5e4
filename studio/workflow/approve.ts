/**
 * The approval itself: the ledger entries and the approved texts of every unapproved page of the
 * entry's branch, as one commit on the branch whose author is the principal (git plumbing, no checkout,
 * so decap-server's own checkouts are never disturbed). Compare-and-swap on the head the principal
 * reviewed: a branch that moved since is refused, so what is approved is what was reviewed.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_FILE, recordApproval, serializeLedger, textFileOf, type ApprovalDetails } from "../../lib/approval/ledger.ts";
import { git, STUDIO_COMMITTER } from "../git.ts";
import { STUDIO_EVENT_TRAILER } from "./entries.ts";
import { ledgerAt, pageChanges, type PageChange } from "./changes.ts";

export interface Approver {
  /** As recorded: the roster's name and first registration (server mode), or as typed (loopback). */
  name: string;
  registration: string;
  email: string;
  crd?: string;
}

export interface Approved {
  commit: string;
  pages: PageChange[];
}

export async function recordApprovalCommit(
  root: string,
  repo: string,
  branch: string,
  expectedHead: string,
  approver: Approver,
  extra: Pick<ApprovalDetails, "selfApprovalException"> = {},
  now = new Date(),
): Promise<Approved> {
  const head = git(repo, "rev-parse", `refs/heads/${branch}`);
  if (head !== expectedHead) throw new Error("The entry changed since this page was loaded: reload it and review the change again.");
  const changes = await pageChanges(root, repo, head);
  if (changes.length === 0) throw new Error("Nothing to approve: every page of this entry is approved.");
  const approvedBy = [approver.name, approver.registration, ...(approver.crd ? [`CRD ${approver.crd}`] : [])].join(", ");
  const details: ApprovalDetails = {
    ...(approver.crd
      ? { principal: { email: approver.email, name: approver.name, crd: approver.crd, registration: approver.registration } }
      : {}),
    commit: head,
    ...extra,
  };
  let ledger = ledgerAt(repo, head);
  for (const change of changes) ledger = recordApproval(ledger, change.page, change.sha256, approvedBy, now, details).ledger;
  const index = join(root, ".studio", `index-${process.pid}-${Date.now()}`);
  const run = (args: string[], input?: string, extra: Record<string, string> = {}) =>
    execFileSync("git", args, { cwd: repo, env: { ...process.env, GIT_INDEX_FILE: index, ...extra }, input, encoding: "utf8" }).trim();
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
