/**
 * Publishing an entry. The rule in both modes: every page whose text the merged result changes carries
 * a registered principal's approval (the build gate, asked first), and the branch still merges. Server
 * mode publishes to the firm's git host first: fetch `origin`, build the merge with git plumbing, run
 * the gate on it, push it to `origin/main`, and only then move the studio's `main`. A moved or
 * protected `origin` refuses the publish with one sentence, and nothing changes. Loopback mode merges
 * in the studio's clone (decap-server) and brings `main` into the project (git.ts).
 */
import { execFileSync } from "node:child_process";
import { git, gitAsync, mergeConflict, STUDIO_COMMITTER, StudioRefusal } from "../git.ts";
import type { Actor } from "../auth/sessions.ts";
import { entryName, STUDIO_EVENT_TRAILER, type Entry } from "./entries.ts";
import { pageChanges } from "./changes.ts";
import { pageTitles } from "./titles.ts";
import { appendEvent } from "./log.ts";

/** Why a revision may not be published: the pages its own ledger does not approve, named by title; null when all are. */
export async function unapprovedRefusal(root: string, repo: string, revision: string): Promise<string | null> {
  const changes = await pageChanges(root, repo, revision);
  if (changes.length === 0) return null;
  const titles = await pageTitles(root, repo, revision);
  const pages = changes.map((c) => `${titles(c.page)} (${c.reason === "new" ? "never approved" : "text changed"})`).join(", ");
  return `Not published: ${pages} ${changes.length === 1 ? "is" : "are"} not approved by a registered principal. Open the entry's review, where a principal approves it first.`;
}

/** Why the entry's branch may not be published now; null when it may. */
export async function publishRefusal(root: string, repo: string, branch: string): Promise<string | null> {
  return mergeConflict(repo, branch) ?? (await unapprovedRefusal(root, repo, branch));
}

/** git's refusal of a push, as one sentence for the publisher. */
function pushRefusal(stderr: string): string {
  const remote = stderr
    .split("\n")
    .filter((line) => line.startsWith("remote:"))
    .map((line) => line.replace(/^remote:\s*/, "").trim())
    .filter(Boolean)
    .join(" ");
  if (/non-fast-forward|fetch first|stale info/.test(stderr))
    return "Not published: main changed on the firm's git host while publishing; nothing changed here, so publish again.";
  return `Not published: the firm's git host refused the push${remote ? ` (${remote})` : ""}; nothing changed here or there.`;
}

export interface Published {
  commit: string;
  message: string;
}

/** Server mode: the entry merged into `origin/main`, pushed, then the studio's own `main` moved. */
export async function publishToOrigin(root: string, repo: string, entry: Entry, actor: Actor): Promise<Published> {
  await gitAsync(repo, "fetch", "--quiet", "origin", "main").catch((error: Error) => {
    throw new StudioRefusal(`Not published: the firm's git host could not be reached (${error.message.split("\n")[0]}); nothing changed.`);
  });
  const [local, remote] = [git(repo, "rev-parse", "main"), git(repo, "rev-parse", "origin/main")];
  if (local !== remote) {
    try {
      git(repo, "merge-base", "--is-ancestor", local, remote);
    } catch {
      throw new StudioRefusal(
        "Not published: the studio's main has diverged from the firm's repository; an administrator must reconcile them first.",
      );
    }
    git(repo, "merge", "--quiet", "--ff-only", "origin/main");
  }
  const conflict = mergeConflict(repo, entry.branch);
  if (conflict) throw new StudioRefusal(conflict);
  const name = entryName(repo, entry);
  const tree = git(repo, "merge-tree", "--write-tree", "main", entry.branch).split("\n")[0]!;
  const message = `Publish ${name}\n\nPublished by ${actor.name} <${actor.email}> from the content studio.\n\n${STUDIO_EVENT_TRAILER}: publish`;
  const candidate = execFileSync("git", ["commit-tree", tree, "-p", "main", "-p", entry.branch, "-m", message], {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: actor.name,
      GIT_AUTHOR_EMAIL: actor.email,
      GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
      GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
    },
  }).trim();
  // The gate on what visitors will get: the merged result, with main as it is now.
  const refusal = await unapprovedRefusal(root, repo, candidate);
  if (refusal) throw new StudioRefusal(refusal);
  await gitAsync(repo, "push", "--quiet", "origin", `${candidate}:refs/heads/main`).catch((error: Error & { stderr?: string }) => {
    throw new StudioRefusal(pushRefusal(error.stderr ?? error.message));
  });
  git(repo, "merge", "--quiet", "--ff-only", candidate);
  git(repo, "branch", "--quiet", "-D", entry.branch);
  logPublished(repo, entry, name, candidate, actor);
  return { commit: candidate, message: `Published ${name}: the firm's repository has it (main at ${candidate.slice(0, 7)}).` };
}

export function logPublished(repo: string, entry: Entry, name: string, commit: string, actor: Actor) {
  appendEvent(repo, {
    event: "published",
    at: new Date().toISOString(),
    entry: { collection: entry.collection, slug: entry.slug, branch: entry.branch, name },
    commit,
    actor: actor.local
      ? { name: actor.name, email: actor.email, role: "developer" }
      : { name: actor.name, email: actor.email, role: actor.role, issuer: actor.issuer, subject: actor.subject },
  });
}

/** Server mode: the review log reaches the firm's git host too (best effort; the next event's push carries what one missed). */
export async function pushLog(repo: string): Promise<void> {
  await gitAsync(repo, "push", "--quiet", "origin", "studio-log").catch((error: Error) =>
    console.warn(`studio: the review log could not be pushed yet (${error.message.split("\n")[0]})`),
  );
}
