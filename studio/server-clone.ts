/**
 * The server mode's clone of the firm's repository (`remote`), in `<stateDir>/repo`, made ready at
 * start. The firm's git host is the truth (decision 0038): a new clone (an empty state directory)
 * takes the board and the review log back from it; a kept clone is first freed of what a killed run
 * left (stale git locks, a half-written work tree; decision 0039), then brought up to the host: `main`
 * by fast-forward (a `main` that has diverged stops the studio with one sentence: it never merges or
 * rebases `main` itself), an entry the host's `main` already has shown as published, and whatever the
 * host lacks pushed once the studio runs. A host that cannot be reached does not stop a kept clone.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { git, gitAsync, identifyStudio, redact, StudioRefusal } from "./git.ts";
import { clearStaleLocks } from "./git-locks.ts";
import { adoptHostEntries, configureHostRefs, fetchHost, gitComplaint, hostEntries } from "./workflow/host.ts";
import { settlePublished } from "./workflow/publish.ts";
import { recordStatuses } from "./workflow/status-refs.ts";

export async function prepareServerClone(stateDir: string, remote: string): Promise<string> {
  const repo = join(stateDir, "repo");
  const fresh = !existsSync(join(repo, ".git"));
  if (fresh) {
    mkdirSync(stateDir, { recursive: true });
    await gitAsync(stateDir, "clone", "--quiet", "--branch", "main", remote, repo).catch((error: Error) => {
      console.error(`studio: git clone ${redact(remote)} failed: ${gitComplaint(error)}`);
      throw new StudioRefusal(
        `The studio could not clone the firm's repository (${redact(remote)}): the firm's git host did not answer or refused; its log says why.`,
      );
    });
  } else {
    await clearStaleLocks(repo);
    git(repo, "remote", "set-url", "origin", remote);
    // A save cut short in decap-server's rebase of its branch: the branch goes back to before that save.
    if (existsSync(join(repo, ".git", "rebase-merge")) || existsSync(join(repo, ".git", "rebase-apply"))) git(repo, "rebase", "--abort");
    // Only the studio writes in its clone, each change committed in one action: what is not committed was cut short.
    git(repo, "reset", "--quiet", "--hard");
  }
  identifyStudio(repo);
  configureHostRefs(repo);
  git(repo, "checkout", "--quiet", "--force", "main");
  const known = fresh ? new Set<string>() : hostEntries(repo);
  let reached = true;
  await fetchHost(repo).catch((error: unknown) => {
    if (fresh) throw new StudioRefusal(`The studio could not read the firm's repository (${redact(remote)}): ${gitComplaint(error)}`);
    reached = false;
    console.error(`studio: the firm's git host could not be reached at start (${gitComplaint(error)}); the studio starts on its own clone`);
  });
  if (reached) {
    try {
      git(repo, "merge", "--quiet", "--ff-only", "origin/main");
    } catch {
      throw new StudioRefusal(
        `The studio's main (${repo}) has diverged from the firm's repository: an administrator must reconcile them (git -C ${repo} log main...origin/main).`,
      );
    }
    const adopted = adoptHostEntries(repo, known);
    if (adopted.length)
      console.error(`studio: took ${adopted.length} entr${adopted.length === 1 ? "y" : "ies"} in review back from the firm's git host`);
  }
  settlePublished(repo);
  recordStatuses(repo);
  return repo;
}
