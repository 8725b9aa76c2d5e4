/**
 * The studio's workflow against a git host, with real git on a bare repository: a review log begun
 * afresh beside the host's continues it (one root, the host's events first), the statuses travel as
 * refs and come back to a new clone, and a stale git lock is removed only once no git process works in
 * the clone.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { git, StudioRefusal } from "../../studio/git.ts";
import { clearStaleLocks } from "../../studio/git-locks.ts";
import { listEntries, setStatus } from "../../studio/workflow/entries.ts";
import { adoptHostEntries, configureHostRefs, fetchHost, HostSync, inTurn } from "../../studio/workflow/host.ts";
import { appendEvent, continueHostLog, readEvents, type ReviewEvent } from "../../studio/workflow/log.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** A bare "host" with a main, and `clone(name)` for clones of it configured as the studio configures its own. */
function host() {
  const dir = mkdtempSync(join(tmpdir(), "studio-host-"));
  made.push(dir);
  const bare = join(dir, "host.git");
  execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare]);
  const seed = join(dir, "seed");
  execFileSync("git", ["clone", "--quiet", bare, seed], { stdio: "ignore" });
  writeFileSync(join(seed, "hero.yaml"), "headline: Hello\n");
  git(seed, "add", "-A");
  git(seed, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "start");
  git(seed, "push", "--quiet", "origin", "HEAD:main");
  return {
    bare,
    clone(name: string) {
      const repo = join(dir, name);
      execFileSync("git", ["clone", "--quiet", "--branch", "main", bare, repo]);
      git(repo, "config", "user.name", "Content studio");
      git(repo, "config", "user.email", "studio@localhost");
      configureHostRefs(repo);
      return repo;
    },
  };
}

const event = (comment: string): ReviewEvent => ({
  event: "changes_requested",
  at: new Date().toISOString(),
  entry: { collection: "landing", slug: "hero", branch: "cms/landing/hero", name: "Landing page: Hero" },
  commit: "0".repeat(40),
  actor: { name: "Pat Example", email: "pat.example@example.com", role: "principal", issuer: "https://idp", subject: "user-2" },
  comment,
});

describe("the review log beside the host's", () => {
  it("a log begun afresh continues the host's: the host's events first, then its own, one root, a fast-forward for the host", async () => {
    const { bare, clone } = host();
    const first = clone("first");
    appendEvent(first, event("one"));
    appendEvent(first, event("two"));
    git(first, "push", "--quiet", "origin", "studio-log");
    const hostLog = git(bare, "rev-parse", "studio-log");

    // A studio that wrote before it knew the host's log (the fault of issue 47): a second root.
    const second = clone("second");
    git(second, "update-ref", "-d", "refs/remotes/origin/studio-log");
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    appendEvent(second, event("three"));
    await fetchHost(second);
    continueHostLog(second);

    expect(readEvents(second).map((e) => e.comment)).toEqual(["one", "two", "three"]);
    expect(git(second, "rev-list", "--max-parents=0", "studio-log").split("\n")).toHaveLength(1);
    expect(() => git(second, "merge-base", "--is-ancestor", hostLog, "studio-log")).not.toThrow();
    git(second, "push", "--quiet", "origin", "studio-log");
    expect(git(bare, "rev-parse", "studio-log")).toBe(git(second, "rev-parse", "studio-log"));
  });
});

describe("the board on the host", () => {
  it("an entry's branch and status pushed from one clone come back, with the status, to a new one", async () => {
    const { bare, clone } = host();
    const studio = clone("studio");
    git(studio, "branch", "cms/landing/hero", "main");
    setStatus(studio, "cms/landing/hero", "pending_review");
    const sync = new HostSync(studio);
    sync.record();
    appendEvent(studio, event("an event the host has not had"));
    expect(sync.notOnHost()).toEqual({ entries: new Set(["cms/landing/hero"]), events: 1 });
    await sync.push();
    expect(sync.notOnHost()).toEqual({ entries: new Set(), events: 0 });
    expect(git(bare, "cat-file", "blob", "refs/studio/status/cms/landing/hero:status")).toBe("pending_review");

    const after = clone("after-the-disk-was-lost");
    await fetchHost(after);
    expect(adoptHostEntries(after, new Set())).toEqual(["cms/landing/hero"]);
    expect(listEntries(after).map((e) => [e.branch, e.status])).toEqual([["cms/landing/hero", "pending_review"]]);

    // Withdrawn on the first: the branch and its status leave the host too.
    git(studio, "branch", "--quiet", "-D", "cms/landing/hero");
    sync.record();
    await sync.push();
    expect(git(bare, "for-each-ref", "refs/heads/cms/", "refs/studio/")).toBe("");
    sync.close();
  });

  it("takes turns per repository: one task at a time in the order given, the next after a failure too, other repositories meanwhile", async () => {
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const task =
      (name: string, fail = false) =>
      () =>
        new Promise<string>((done, refuse) => {
          started.push(name);
          gates.set(name, () => (fail ? refuse(new Error(name)) : done(name)));
        });
    const first = inTurn("/repo/a", task("a1", true));
    const second = inTurn("/repo/a", task("a2"));
    const elsewhere = inTurn("/repo/b", task("b1"));
    await Promise.resolve();
    await Promise.resolve();
    expect(started).toEqual(["a1", "b1"]);
    gates.get("a1")!();
    await expect(first).rejects.toThrow("a1");
    await expect.poll(() => started).toEqual(["a1", "b1", "a2"]);
    gates.get("a2")!();
    gates.get("b1")!();
    expect(await Promise.all([second, elsewhere])).toEqual(["a2", "b1"]);
  });

  it("a fetch while the workflow is pushed waits its turn: the two never update refs at once (as a scheduled publish's check and a push did)", async () => {
    const { clone } = host();
    const studio = clone("studio");
    const other = clone("another-copy");
    // Each ref update the studio's clone makes says when it begins and ends, and holds its locks 200 ms in between.
    const log = join(studio, ".git", "ref-updates.log");
    writeFileSync(
      join(studio, ".git", "hooks", "reference-transaction"),
      `#!/bin/sh\ncat >/dev/null\ncase "$1" in prepared) echo begin >>"${log}"; sleep 0.2;; committed|aborted) echo end >>"${log}";; esac\n`,
      { mode: 0o755 },
    );
    const sync = new HostSync(studio);
    const failures: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void failures.push(line));
    // Something for each to update: the host's main moved by another copy (the fetch), an event of the studio's (the push).
    writeFileSync(join(other, "hero.yaml"), "headline: Hello again\n");
    git(other, "commit", "--quiet", "-am", "elsewhere");
    git(other, "push", "--quiet", "origin", "main");
    appendEvent(studio, event("pushed while the host is fetched"));
    writeFileSync(log, "");
    const [fetched] = await Promise.allSettled([fetchHost(studio), sync.push()]);
    expect(fetched.status === "rejected" ? String(fetched.reason) : "fetched").toBe("fetched");
    expect(failures).toEqual([]);
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["begin", "end", "begin", "end"]);
    expect(sync.notOnHost().events).toBe(0);
    expect(git(studio, "rev-parse", "refs/remotes/origin/main")).toBe(git(other, "rev-parse", "main"));
    sync.close();
  });
});

describe("a stale git lock at start", () => {
  it("is left while a git process works in the clone, with one sentence; removed once none does", async () => {
    const { clone } = host();
    const repo = clone("studio");
    const lock = join(repo, ".git", "index.lock");
    writeFileSync(lock, "");
    // A git command that holds on (it reads its standard input until that closes).
    const working = spawn("git", ["hash-object", "--stdin"], { cwd: repo, stdio: ["pipe", "ignore", "ignore"] });
    try {
      await expect(clearStaleLocks(repo, 500)).rejects.toThrow(StudioRefusal);
      await expect(clearStaleLocks(repo, 500)).rejects.toThrow(
        new RegExp(`^Another git command \\(process ${working.pid}\\) is working in the studio's clone`),
      );
      expect(existsSync(lock)).toBe(true);
    } finally {
      working.stdin.end();
      await new Promise((done) => working.once("exit", done));
    }
    const said = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await clearStaleLocks(repo);
    expect(existsSync(lock)).toBe(false);
    expect(said).toHaveBeenCalledWith(expect.stringMatching(/^studio: removed the stale git lock \.git\/index\.lock \(\d+ s old\)/));
    expect(() => git(repo, "status", "--porcelain")).not.toThrow();
  });
});
