import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { git, mergeConflict, preflight, prepareClone, StudioRefusal, syncMainBack } from "../../studio/git.ts";
import { projectRoot } from "../../lib/root.ts";
import { commitOf, fileAt, ledgerAt } from "../../studio/workflow/at.ts";

const made: string[] = [];
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "studio-project-"));
  made.push(dir);
  execFileSync("git", ["init", "--quiet", "--initial-branch=main"], { cwd: dir });
  writeFileSync(join(dir, "hero.yaml"), "headline: Hello\n");
  commit(dir, "start");
  return dir;
}
function commit(dir: string, message: string) {
  git(dir, "add", "-A");
  git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", message);
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the studio's git", () => {
  it("refuses a folder outside git with one sentence saying what to do", () => {
    const dir = mkdtempSync(join(tmpdir(), "studio-nogit-"));
    made.push(dir);
    expect(() => preflight(dir)).toThrow(StudioRefusal);
    expect(() => preflight(dir)).toThrow(/is not a git repository: .* run it in a clone of the project/);
  });

  it("refuses a dirty work tree with one sentence saying what to do", () => {
    const dir = project();
    writeFileSync(join(dir, "hero.yaml"), "headline: Changed\n");
    writeFileSync(join(dir, "new.txt"), "x");
    expect(() => preflight(dir)).toThrow(
      "The work tree has uncommitted changes (2 file(s), see git status): commit or stash them, then run npm run studio again.",
    );
  });

  it("accepts a clean clone", () => {
    expect(() => preflight(project())).not.toThrow();
  });

  it("works in a clone of its own under .studio/ (ignored by the project), never in the person's checkout", () => {
    expect(readFileSync(join(projectRoot, ".gitignore"), "utf8").split("\n")).toContain(".studio/");
    const dir = project();
    const repo = prepareClone(dir);
    expect(repo).toBe(join(dir, ".studio", "repo"));
    expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    git(repo, "checkout", "--quiet", "-b", "cms/landing/hero");
    expect(git(dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  });

  it("follows the project's main when the studio starts again", () => {
    const dir = project();
    const repo = prepareClone(dir);
    writeFileSync(join(dir, "hero.yaml"), "headline: Developer's change\n");
    commit(dir, "developer");
    prepareClone(dir);
    expect(readFileSync(join(repo, "hero.yaml"), "utf8")).toBe("headline: Developer's change\n");
  });

  it("brings a published main back into the project by a fast-forward, and keeps it waiting when it cannot", () => {
    const dir = project();
    const repo = prepareClone(dir);
    writeFileSync(join(repo, "hero.yaml"), "headline: Published\n");
    commit(repo, "publish");
    expect(syncMainBack(dir, repo)).toBeNull();
    expect(readFileSync(join(dir, "hero.yaml"), "utf8")).toBe("headline: Published\n");

    writeFileSync(join(repo, "hero.yaml"), "headline: Published again\n");
    commit(repo, "publish again");
    writeFileSync(join(dir, "other.txt"), "meanwhile");
    commit(dir, "a developer's commit");
    expect(syncMainBack(dir, repo)).toMatch(/waits in \.studio\/repo \(main\)/);
    expect(readFileSync(join(dir, "hero.yaml"), "utf8")).toBe("headline: Published\n");
    expect(git(repo, "log", "-1", "--format=%s", "main")).toBe("publish again");
    expect(existsSync(join(dir, "other.txt"))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([".git", ".studio", "hero.yaml", "other.txt"].sort());
  });

  it("says when an entry no longer merges because main moved, and changes nothing", () => {
    const dir = project();
    git(dir, "checkout", "--quiet", "-b", "cms/landing/hero");
    writeFileSync(join(dir, "hero.yaml"), "headline: The entry's words\n");
    commit(dir, "entry");
    git(dir, "checkout", "--quiet", "main");
    expect(mergeConflict(dir, "cms/landing/hero")).toBeNull();
    writeFileSync(join(dir, "hero.yaml"), "headline: A developer's words\n");
    commit(dir, "developer");
    const before = [git(dir, "rev-parse", "main"), git(dir, "rev-parse", "cms/landing/hero")];
    expect(mergeConflict(dir, "cms/landing/hero")).toBe(
      "Not published: main has changed hero.yaml since this entry was started, and the two changes overlap. Nothing is lost: the entry stays on its branch (cms/landing/hero); a developer merges main into it, then it is reviewed again.",
    );
    expect([git(dir, "rev-parse", "main"), git(dir, "rev-parse", "cms/landing/hero")]).toEqual(before);
    expect(git(dir, "status", "--porcelain")).toBe("");
  });
});

describe("what the workflow reads of a revision", () => {
  it("reads a commit named by its hash once, and a branch where it is now", () => {
    const dir = project();
    const first = commitOf(dir, "main");
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(fileAt(dir, first, "hero.yaml")).toBe("headline: Hello\n");
    writeFileSync(join(dir, "hero.yaml"), "headline: Changed\n");
    commit(dir, "change");
    const second = commitOf(dir, "main");
    expect(second).not.toBe(first);
    expect(fileAt(dir, "main", "hero.yaml")).toBe("headline: Changed\n");
    expect(fileAt(dir, second, "hero.yaml")).toBe("headline: Changed\n");
    // With the repository out of reach, what was read of a commit by its hash is still known; nothing else is.
    renameSync(join(dir, ".git"), join(dir, ".git-away"));
    try {
      expect(fileAt(dir, first, "hero.yaml")).toBe("headline: Hello\n");
      expect(fileAt(dir, second, "hero.yaml")).toBe("headline: Changed\n");
      expect(fileAt(dir, "main", "hero.yaml")).toBe("");
      expect(commitOf(dir, "main")).toBe("main");
    } finally {
      renameSync(join(dir, ".git-away"), join(dir, ".git"));
    }
  });

  it("answers a file or a revision that is not there as before: an empty text, an empty ledger", () => {
    const dir = project();
    const head = commitOf(dir, "main");
    expect(fileAt(dir, head, "no-such-file.txt")).toBe("");
    expect(ledgerAt(dir, head).pages).toEqual({});
    expect(commitOf(dir, "no-such-branch")).toBe("no-such-branch");
    expect(fileAt(dir, "no-such-branch", "hero.yaml")).toBe("");
  });
});

/** `fn` run with no git to start (PATH empty): only what was kept answers. */
function withoutGit<T>(fn: () => T): T {
  const path = process.env.PATH;
  process.env.PATH = "";
  try {
    return fn();
  } finally {
    process.env.PATH = path;
  }
}

describe("a read answered again while the repository's refs and config are unchanged", () => {
  /** git as another process writes: decap-server, a push, a person at a terminal. */
  const outside = (dir: string, ...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();

  it("answers a read, and a refusal, without git until a ref or the config changes", () => {
    const dir = project();
    outside(dir, "config", "branch.main.description", "the site");
    const main = git(dir, "rev-parse", "main");
    expect(() => git(dir, "rev-parse", "--verify", "--quiet", "refs/heads/cms/landing/hero")).toThrow();
    expect(git(dir, "config", "--get", "branch.main.description")).toBe("the site");
    withoutGit(() => {
      expect(git(dir, "rev-parse", "main")).toBe(main);
      expect(git(dir, "config", "--get", "branch.main.description")).toBe("the site");
      // git refused: kept as refused.
      expect(() => git(dir, "rev-parse", "--verify", "--quiet", "refs/heads/cms/landing/hero")).toThrow();
      // Never asked before: git is needed, and cannot start.
      expect(() => git(dir, "for-each-ref", "refs/heads/")).toThrow(/ENOENT/);
    });
    // A write is never answered from what was kept.
    expect(() => withoutGit(() => git(dir, "update-ref", "refs/heads/cms/landing/hero", main))).toThrow(/ENOENT/);
    outside(dir, "branch", "cms/landing/hero", "main");
    expect(git(dir, "rev-parse", "--verify", "--quiet", "refs/heads/cms/landing/hero")).toBe(main);
    outside(dir, "config", "branch.cms/landing/hero.description", "decap-cms/pending_review");
    expect(git(dir, "config", "--get", "branch.cms/landing/hero.description")).toBe("decap-cms/pending_review");
    outside(dir, "config", "branch.cms/landing/hero.description", "decap-cms/draft");
    expect(git(dir, "config", "--get", "branch.cms/landing/hero.description")).toBe("decap-cms/draft");
  });

  it("follows every change of a ref another process makes, however quickly they come", () => {
    const dir = project();
    const commits = [git(dir, "rev-parse", "main")];
    for (let i = 0; i < 5; i++) commits.push(outside(dir, "commit-tree", "-p", commits.at(-1)!, "-m", `c${i}`, `${commits[0]}^{tree}`));
    for (let round = 0; round < 4; round++)
      for (const commit of commits) {
        outside(dir, "update-ref", "refs/heads/cms/landing/hero", commit);
        expect(git(dir, "rev-parse", "refs/heads/cms/landing/hero")).toBe(commit);
        expect(git(dir, "for-each-ref", "--format=%(objectname)", "refs/heads/cms/")).toBe(commit);
      }
    // Packed (one file for every ref), then deleted: each seen.
    outside(dir, "pack-refs", "--all");
    expect(git(dir, "rev-parse", "refs/heads/cms/landing/hero")).toBe(commits.at(-1));
    outside(dir, "update-ref", "-d", "refs/heads/cms/landing/hero");
    expect(git(dir, "for-each-ref", "--format=%(objectname)", "refs/heads/cms/")).toBe("");
    outside(dir, "checkout", "--quiet", "-b", "other");
    expect(git(dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe("other");
  });
});

describe("a read of objects named by their hashes", () => {
  const blob = (dir: string, text: string) =>
    execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: dir, input: text, encoding: "utf8" }).trim();

  it("is kept whatever the refs do, but one that also names a ref, HEAD or every branch follows them", () => {
    const dir = project();
    const first = git(dir, "rev-parse", "main");
    writeFileSync(join(dir, "hero.yaml"), "headline: Second\n");
    commit(dir, "second");
    const second = git(dir, "rev-parse", "main");
    expect(git(dir, "show", `${second}~1:hero.yaml`)).toBe("headline: Hello");
    expect(git(dir, "rev-list", "--count", `${second}~1..main`)).toBe("1");
    expect(git(dir, "log", "-1", "--format=%H")).toBe(second);
    expect(git(dir, "rev-list", "--count", "--branches", `^${second}`)).toBe("0");
    writeFileSync(join(dir, "hero.yaml"), "headline: Third\n");
    commit(dir, "third");
    execFileSync("git", ["branch", "other", first], { cwd: dir });
    // A range ending in a branch, HEAD implied, every branch: answered again as they are now.
    expect(git(dir, "rev-list", "--count", `${second}~1..main`)).toBe("2");
    expect(git(dir, "log", "-1", "--format=%H")).toBe(git(dir, "rev-parse", "main"));
    expect(git(dir, "rev-list", "--count", "--branches", `^${second}`)).toBe("1");
    // The hash's own read, without git.
    expect(withoutGit(() => git(dir, "show", `${second}~1:hero.yaml`))).toBe("headline: Hello");
  });

  it("reads a text of several megabytes, and keeps no more than about 16 million characters of them", () => {
    const dir = project();
    const big = blob(dir, "x".repeat(3_000_000));
    expect(git(dir, "cat-file", "blob", big)).toHaveLength(3_000_000);
    const blobs = Array.from({ length: 19 }, (_, i) => blob(dir, `${i}`.padEnd(900_000, "y")));
    for (const hash of blobs) git(dir, "cat-file", "blob", hash);
    // The last is still known; the first was dropped with the rest once the texts passed the bound.
    expect(withoutGit(() => git(dir, "cat-file", "blob", blobs.at(-1)!))).toHaveLength(900_000);
    expect(() => withoutGit(() => git(dir, "cat-file", "blob", blobs[0]!))).toThrow(/ENOENT/);
  });
});
