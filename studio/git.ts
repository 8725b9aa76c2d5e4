/**
 * The studio's git: checks that the project can be edited, and keeps a clone of its own in `.studio/repo`
 * for decap-server, which checks branches out as it works (never the checkout a person is working in).
 * Publishing merges an entry's branch into the clone's `main`; the studio then brings that `main` into
 * the project by a fast-forward, so the project's `main` holds the change and its approval.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/**
 * git without blocking the process: every command that talks to a remote (fetch, push, clone) goes
 * through this, so the studio keeps answering while it waits (and a git host in the same process, as
 * in the tests and the demo, can answer it). Rejects with git's own message.
 */
export const gitAsync = (cwd: string, ...args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(Object.assign(new Error(stderr.trim() || error.message), { stderr })) : resolve(stdout.trim()),
    ),
  );

/** The committer of everything the studio writes; the author is the signed-in person. */
export const STUDIO_COMMITTER = { name: "Content studio", email: "studio@localhost" };

/** The studio's own folder never counts as a change of the project, whether or not the project's .gitignore names it. */
const STUDIO_FOLDER_EXCLUDED = ":(exclude).studio";

/** Thrown with the one sentence a person reads when the studio cannot start. */
export class StudioRefusal extends Error {}

/** The project's git top level, its branch `main`, and a clean work tree; otherwise one sentence saying what to do. */
export function preflight(root: string): void {
  let top: string;
  try {
    top = git(root, "rev-parse", "--show-toplevel");
  } catch {
    throw new StudioRefusal(
      `${root} is not a git repository: the studio saves every edit as a git branch, so run it in a clone of the project (git clone <the project's URL>).`,
    );
  }
  const dirty = git(top, "status", "--porcelain", "--untracked-files=normal", "--", ".", STUDIO_FOLDER_EXCLUDED);
  if (dirty) {
    throw new StudioRefusal(
      `The work tree has uncommitted changes (${dirty.split("\n").length} file(s), see git status): commit or stash them, then run npm run studio again.`,
    );
  }
  try {
    git(top, "rev-parse", "--verify", "--quiet", "refs/heads/main");
  } catch {
    throw new StudioRefusal(
      `This repository has no branch named main: the studio publishes into main, so create it (git branch main) first.`,
    );
  }
}

/** `.studio/repo`: a clone of the project whose `main` follows the project's, with a committer for the studio. */
export function prepareClone(root: string): string {
  const repo = join(root, ".studio", "repo");
  if (!existsSync(join(repo, ".git"))) {
    mkdirSync(join(root, ".studio"), { recursive: true });
    git(root, "clone", "--quiet", "--no-hardlinks", "--branch", "main", root, repo);
  }
  identifyStudio(repo);
  git(repo, "checkout", "--quiet", "main");
  git(repo, "fetch", "--quiet", "origin", "main");
  // The project's main moved on (a developer's commit): the clone follows it when it can, and says so when it cannot.
  try {
    git(repo, "merge", "--quiet", "--ff-only", "origin/main");
  } catch {
    git(repo, "merge", "--quiet", "--no-edit", "origin/main");
  }
  return repo;
}

/** The studio's own commits (decap-server's saves and merges) need a committer, whatever the machine's git setup. */
export function identifyStudio(repo: string) {
  git(repo, "config", "user.name", STUDIO_COMMITTER.name);
  git(repo, "config", "user.email", STUDIO_COMMITTER.email);
}

/** A remote's address without the password it may carry (for messages and logs). */
export const redact = (remote: string) => remote.replace(/\/\/([^/@:]+):[^/@]*@/, "//$1:***@");

/**
 * Brings the clone's `main` into the project after a publish: a fast-forward of the project's `main`
 * (its work tree too when `main` is checked out and clean). Returns a sentence when it cannot, and
 * leaves the project as it was: nothing is lost, the clone keeps the published commit.
 */
export function syncMainBack(root: string, repo: string): string | null {
  const current = git(root, "rev-parse", "--abbrev-ref", "HEAD");
  try {
    if (current === "main") {
      if (git(root, "status", "--porcelain", "--", ".", STUDIO_FOLDER_EXCLUDED))
        return "The project's work tree has uncommitted changes; the published commit waits in .studio/repo (main).";
      git(root, "fetch", "--quiet", repo, "main");
      git(root, "merge", "--quiet", "--ff-only", "FETCH_HEAD");
    } else {
      git(root, "fetch", "--quiet", repo, "main:refs/heads/main");
    }
    return null;
  } catch {
    return `The project's main has commits the studio has not seen; the published commit waits in .studio/repo (main): merge it with git pull .studio/repo main.`;
  }
}

/**
 * Whether `branch` still merges into `main` without a conflict (`main` moved: a developer's commit, or
 * another entry published first); the sentence to show when it does not. Nothing is changed either way.
 */
export function mergeConflict(repo: string, branch: string): string | null {
  try {
    execFileSync("git", ["merge-tree", "--write-tree", "--name-only", "--no-messages", "main", branch], {
      cwd: repo,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return null;
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? "");
    const files = output.split("\n").slice(1).filter(Boolean);
    return `Not published: main has changed ${files.join(", ") || "the same files"} since this entry was started, and the two changes overlap. Nothing is lost: the entry stays on its branch (${branch}); a developer merges main into it, then it is reviewed again.`;
  }
}

/**
 * A rebase decap-server left stopped in the clone, undone: each save rebases the entry's branch onto
 * main first, and stops where main changed the same lines since (another entry published with its
 * approval of the same page, a developer's commit); until it is undone every checkout is refused, and
 * with it every action. The branch is as it was before that save. Returns the files it stopped on, or
 * null when no rebase was under way. (At start, server-clone.ts undoes one a killed run left.)
 */
export function abandonRebase(repo: string): string[] | null {
  if (!existsSync(join(repo, ".git", "rebase-merge")) && !existsSync(join(repo, ".git", "rebase-apply"))) return null;
  const files = git(repo, "diff", "--name-only", "--diff-filter=U").split("\n").filter(Boolean);
  git(repo, "rebase", "--abort");
  return files;
}

/** A save refused because the entry's branch no longer rebases onto main (`abandonRebase`'s files). */
export const saveConflict = (files: string[], branch: string) =>
  `Not saved: main has changed ${files.join(", ") || "the same files"} since this entry was started, and the two changes overlap. Nothing was changed: the entry stays on its branch (${branch}) as it was; a developer brings it up to date with main, then it can be saved here again.`;
