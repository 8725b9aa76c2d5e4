/**
 * Each entry's status as a ref the studio can push (decision 0038): `refs/studio/status/<branch>`, a
 * commit whose tree holds one file, `status` (draft, pending_review or pending_publish), and whose parent
 * is the status before it, so the ref's history is the entry's path through the review. decap-server
 * keeps the status in the clone's git config (`branch.<b>.description`), which Decap reads and no push
 * carries; these refs mirror it after every change, and give it back to a new clone. A Ready entry's
 * tree may also hold `schedule`, the moment a principal chose to publish it (schedule.ts): a change of
 * status writes a commit without it, so an edit, a return to review or a publish clears the schedule.
 */
import { git, STUDIO_COMMITTER } from "../git.ts";
import { listEntries, STATUS_LABEL, type Status } from "./entries.ts";
import { runGit } from "../git-process/run.ts";

export const STATUS_REFS = "refs/studio/status/";
const NO_REF = "0".repeat(40);

/** The refs under `prefix` (and under each of `more`, in the same git call), by full name. */
export function refsUnder(repo: string, prefix: string, ...more: string[]): Map<string, string> {
  const lines = git(repo, "for-each-ref", "--format=%(refname) %(objectname)", prefix, ...more)
    .split("\n")
    .filter(Boolean);
  return new Map(lines.map((line) => line.split(" ") as [string, string]));
}

/** The status a status commit records. */
export function statusIn(repo: string, commit: string): Status {
  const status = git(repo, "cat-file", "blob", `${commit}:status`);
  return status === "pending_review" || status === "pending_publish" ? status : "draft";
}

export function statusCommit(repo: string, branch: string, status: Status, parent: string | undefined, schedule?: string): string {
  const run = (args: string[], input?: string) =>
    runGit(args, {
      cwd: repo,
      input,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: STUDIO_COMMITTER.name,
        GIT_AUTHOR_EMAIL: STUDIO_COMMITTER.email,
        GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
        GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
      },
    }).trim();
  const blob = run(["hash-object", "-w", "--stdin"], `${status}\n`);
  const scheduled = schedule === undefined ? "" : `100644 blob ${run(["hash-object", "-w", "--stdin"], schedule)}\tschedule\n`;
  const tree = run(["mktree"], `100644 blob ${blob}\tstatus\n${scheduled}`);
  const message = `${STATUS_LABEL[status]}${schedule === undefined ? "" : ", scheduled"}: ${branch}`;
  return run(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message]);
}

/** Records each entry's status in its status ref, and drops the refs of entries gone (published, withdrawn). */
export function recordStatuses(repo: string) {
  const refs = refsUnder(repo, STATUS_REFS);
  for (const entry of listEntries(repo)) {
    const ref = `${STATUS_REFS}${entry.branch}`;
    const current = refs.get(ref);
    refs.delete(ref);
    if (current && statusIn(repo, current) === entry.status) continue;
    git(repo, "update-ref", ref, statusCommit(repo, entry.branch, entry.status, current), current ?? NO_REF);
  }
  for (const [ref, commit] of refs) git(repo, "update-ref", "-d", ref, commit);
}
