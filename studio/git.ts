/**
 * The studio's git: checks that the project can be edited, and keeps a clone of its own in `.studio/repo`
 * for decap-server, which checks branches out as it works (never the checkout a person is working in).
 * Publishing merges an entry's branch into the clone's `main`; the studio then brings that `main` into
 * the project by a fast-forward, so the project's `main` holds the change and its approval.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { GIT_MAX_BUFFER, runGit } from "./git-process/run.ts";

/** Commands whose answer depends only on the repository's refs, its config and its objects (never its work tree). */
const READS = new Set(["for-each-ref", "rev-parse", "cat-file", "show", "log", "ls-tree", "merge-base", "rev-list"]);
const CONFIG_READS = new Set(["--get", "--get-all", "--get-regexp", "--list", "-l"]);
/** What of `.git` a read may depend on besides objects: every file at its top (HEAD, config, packed-refs, FETCH_HEAD…) and every ref. */
const NOT_STATE = new Set(["objects", "logs", "hooks", "index", "COMMIT_EDITMSG", "info", "worktrees"]);
const RECURSE = new Set(["refs", "reftable"]);
/**
 * Past this many answers kept (for one state of a repository, or about hashes), or this much of their text,
 * they are dropped: the board asks a few dozen, and the review log read at each of its commits grows with
 * the studio's months.
 */
const KEEP = 1_000;
const KEEP_CHARS = 16_000_000;
/**
 * The state of a repository's refs and config, as the file system has it: each file's name, inode, size
 * and change time. Git writes a ref, `packed-refs`, `HEAD` and `config` into a lock file it then renames
 * over the old one, so every change gives the file a new inode; a new or deleted ref changes the names.
 * Undefined when `cwd` is not a repository's top with its own `.git` folder.
 */
function stateOf(cwd: string): string | undefined {
  const parts: string[] = [];
  const visit = (dir: string, top: boolean) => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      if (top && NOT_STATE.has(item.name)) continue;
      const path = join(dir, item.name);
      if (item.isDirectory()) {
        if (!top || RECURSE.has(item.name)) visit(path, false);
        else parts.push(`${item.name}/`);
        continue;
      }
      const { ino, size, ctimeNs } = statSync(path, { bigint: true });
      parts.push(`${path} ${ino} ${size} ${ctimeNs}`);
    }
  };
  try {
    visit(join(cwd, ".git"), true);
  } catch {
    return undefined;
  }
  return parts.join("\n");
}

type Answer = { out: string } | { error: unknown };

/** Answers kept, up to KEEP of them and KEEP_CHARS of their text; past either, all are dropped. */
class Kept<T extends Answer> {
  #answers = new Map<string, T>();
  #chars = 0;
  get(key: string) {
    return this.#answers.get(key);
  }
  set(key: string, answer: T) {
    const chars = "out" in answer ? answer.out.length : 0;
    if (chars > KEEP_CHARS / 4) return;
    if (this.#answers.size >= KEEP || this.#chars + chars > KEEP_CHARS) {
      this.#answers.clear();
      this.#chars = 0;
    }
    this.#answers.set(key, answer);
    this.#chars += chars;
  }
}

const answers = new Map<string, { state: string; kept: Kept<Answer> }>();
/**
 * Answers about commits, trees and blobs named by their hashes (`<hash>:path`, `<hash>^{tree}`): these
 * never change. Only what git found is kept: an object not there yet may come with a fetch.
 */
const settled = new Kept<{ out: string }>();
/** A git object's full hash (SHA-1 or SHA-256). */
export const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** A revision named from a hash: the hash, `<hash>^{tree}`, `<hash>~1`, `<hash>^2`, each with a `:path` or not (never a range). */
const HASHED = new RegExp(`${HASH.source.slice(0, -1)}(\\^\\d*|~\\d*|\\^\\{[a-z]*\\})*(:.*)?$`);
const OBJECT_TYPES = new Set(["blob", "tree", "commit", "tag"]);
/** Commands whose answer is about the objects their arguments name (not for-each-ref, which lists refs, nor config). */
const OBJECT_READS = new Set(["rev-parse", "cat-file", "show", "log", "ls-tree", "merge-base", "rev-list"]);
/** Options that bring refs in (`log --all`, `rev-list --branches`): a read with one is not about hashes only. */
const NAMES_REFS = /^--(all|branches|tags|remotes|glob|exclude|stdin|reflog|bisect|not)\b/;
/**
 * Whether the revisions `args` name are all hashes, at least one (so no ref, HEAD or config can change
 * the answer: `log -1` alone reads HEAD).
 */
const onlyHashes = ([command, ...rest]: string[]) =>
  OBJECT_READS.has(command!) &&
  rest.some((arg) => HASHED.test(arg)) &&
  rest.every((arg) => (arg.startsWith("-") ? !NAMES_REFS.test(arg) : OBJECT_TYPES.has(arg) || HASHED.test(arg)));

/** Whether `args` only read the repository (so their answer holds while its refs and config do). */
const reads = ([command, ...rest]: string[]) => READS.has(command!) || (command === "config" && rest.some((arg) => CONFIG_READS.has(arg)));

/**
 * git in `cwd`, its output trimmed; throws git's error when it fails. A read (READS) is answered again
 * without a git process while the repository's refs and config are unchanged (stateOf): a git process
 * is 10–25 ms here, during which the studio, one process, answers no one else, and a visit to the board
 * asks the same questions again; a read of objects named by their hashes is answered again whatever
 * changes. What git refused (a ref not there) is kept while the refs are; a git that could not start is not
 * (decision 0059).
 */
export function git(cwd: string, ...args: string[]): string {
  const run = () => runGit(args, { cwd, quiet: true }).trim();
  if (!reads(args)) return run();
  const key = `${cwd}\0${args.join("\0")}`;
  if (onlyHashes(args)) {
    const answer = settled.get(key) ?? { out: run() };
    settled.set(key, answer);
    return answer.out;
  }
  const before = stateOf(cwd);
  if (before === undefined) return run();
  let known = answers.get(cwd);
  if (known?.state !== before) answers.set(cwd, (known = { state: before, kept: new Kept() }));
  let answer = known.kept.get(key);
  if (!answer) {
    try {
      answer = { out: run() };
    } catch (error) {
      if (typeof (error as { status?: unknown }).status !== "number") throw error;
      answer = { error };
    }
    // Kept only when nothing changed while git ran (a write by decap-server, another process).
    if (stateOf(cwd) === before) known.kept.set(key, answer);
  }
  if ("error" in answer) throw answer.error;
  return answer.out;
}

/**
 * git without blocking the process: every command that talks to a remote (fetch, push, clone) goes
 * through this, so the studio keeps answering while it waits (and a git host in the same process, as
 * in the tests and the demo, can answer it). Rejects with git's own message.
 */
export const gitAsync = (cwd: string, ...args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile("git", args, { cwd, encoding: "utf8", maxBuffer: GIT_MAX_BUFFER }, (error, stdout, stderr) =>
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
    runGit(["merge-tree", "--write-tree", "--name-only", "--no-messages", "main", branch], { cwd: repo, quiet: true });
    return null;
  } catch (error) {
    const output = String((error as { stdout?: string }).stdout ?? "");
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
