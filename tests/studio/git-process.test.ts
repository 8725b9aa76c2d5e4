/**
 * git run from the helper process (decision 0061) answers as execFileSync does, in every way the studio
 * reads an answer: the output, git's refusal (status, stderr, message), input and environment; and a
 * helper that ends is replaced, with the command it was running failed as a killed git's would be.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runGit } from "../../studio/git-process/run.ts";
import { projectRoot } from "../../lib/root.ts";

const cwd = projectRoot;
const caught = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected git to fail");
};
/** The helpers this process started: processes running helper.ts whose parent is this process. */
const helpers = () =>
  readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("git-process/helper.ts");
      } catch {
        return false;
      }
    })
    .map(Number);

describe("git through the helper process", () => {
  it("gives what execFileSync gives: output, input, environment", () => {
    const direct = (args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) =>
      execFileSync("git", args, { cwd, encoding: "utf8", ...options });
    expect(runGit(["rev-parse", "HEAD"], { cwd }, "helper")).toBe(direct(["rev-parse", "HEAD"]));
    expect(runGit(["hash-object", "--stdin"], { cwd, input: "a page\n" }, "helper")).toBe(
      direct(["hash-object", "--stdin"], { input: "a page\n" }),
    );
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: "Erin Editor",
      GIT_AUTHOR_EMAIL: "erin@example.com",
      GIT_AUTHOR_DATE: "2026-11-30T10:00:00Z",
    };
    expect(runGit(["var", "GIT_AUTHOR_IDENT"], { cwd, env }, "helper")).toBe("Erin Editor <erin@example.com> 1796032800 +0000\n");
    // Run by the helper, not by this process: git's parent (read by a shell git starts) is the helper.
    const [helper] = helpers();
    const parentOfGit = runGit(["-c", "alias.parent=!cut -d' ' -f4 /proc/$PPID/stat", "parent"], { cwd }, "helper");
    expect(Number(parentOfGit)).toBe(helper);
    // A large answer, past the 64 KB a pipe holds at once.
    const log = direct(["log", "--format=%H %s", "-n", "2000"]);
    expect(log.length).toBeGreaterThan(65_536);
    expect(runGit(["log", "--format=%H %s", "-n", "2000"], { cwd }, "helper")).toBe(log);
  });

  it("fails as execFileSync fails: status, stderr, stdout and the message", () => {
    // Output and a refusal both: the hash it found, then the name it could not.
    const args = ["rev-parse", "HEAD", "not-a-branch"];
    const direct = caught(() => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
    for (const via of ["helper", "process"] as const) {
      const error = caught(() => runGit(args, { cwd, quiet: true }, via));
      expect(error.message, via).toBe(direct.message);
      expect({ status: error.status, signal: error.signal, stdout: error.stdout, stderr: error.stderr }, via).toEqual({
        status: direct.status,
        signal: direct.signal,
        stdout: direct.stdout,
        stderr: direct.stderr,
      });
    }
    expect(direct.status).toBe(128);
    expect(String(direct.stdout)).toMatch(/^[0-9a-f]{40}\n/);
    expect(String(direct.stderr)).toContain("not-a-branch");
  });

  it("a git that cannot start fails with spawn's error, as in the process", () => {
    const error = caught(() => runGit(["status"], { cwd: "/no/such/folder" }, "helper"));
    const direct = caught(() => execFileSync("git", ["status"], { cwd: "/no/such/folder", encoding: "utf8" }));
    expect([error.code, error.syscall, typeof error.status]).toEqual([direct.code, direct.syscall, typeof direct.status]);
  });

  it("a helper killed while git runs: that command fails as a killed git's would, and a new helper answers the next", () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8" });
    expect(runGit(["rev-parse", "HEAD"], { cwd }, "helper")).toBe(head);
    const [helper] = helpers();
    expect(helper, "the helper is a child of this process").toBeDefined();
    // Another process kills the helper and what it started once its git is running (this thread waits for git).
    const killer = spawn(process.execPath, ["-e", KILL_ONCE_GIT_RUNS, String(helper)], { stdio: "ignore" });
    try {
      const error = caught(() => runGit(["-c", "alias.wait=!sleep 30", "wait"], { cwd, quiet: true }, "helper"));
      expect({ status: error.status, signal: error.signal }).toEqual({ status: null, signal: "SIGKILL" });
      expect(error.message).toBe(`Command failed: git -c alias.wait=!sleep 30 wait\nthe git helper ended (SIGKILL) while git ran\n`);
      expect(runGit(["rev-parse", "HEAD"], { cwd }, "helper")).toBe(head);
      const now = helpers();
      expect(now).toHaveLength(1);
      expect(now).not.toContain(helper);
    } finally {
      killer.kill();
    }
  });
});

/** Run by another process: waits until the helper (argv) has a git child, then kills the helper and everything under it. */
const KILL_ONCE_GIT_RUNS = `
const fs = require("node:fs");
const helper = Number(process.argv[1]);
const parentOf = (pid) => { try { const s = fs.readFileSync("/proc/" + pid + "/stat", "utf8"); return Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]); } catch { return 0; } };
const under = () => fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p)).map(Number).filter((pid) => { for (let p = parentOf(pid); p > 1; p = parentOf(p)) if (p === helper) return true; return false; });
const poll = () => { const pids = under(); if (pids.length < 2) return setTimeout(poll, 20); for (const pid of [helper, ...pids]) try { process.kill(pid, "SIGKILL"); } catch {} };
poll();
`;
