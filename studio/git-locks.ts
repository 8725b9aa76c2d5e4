/**
 * Stale git locks in the studio's clone, cleared at start (decision 0039). git takes `index.lock`,
 * `HEAD.lock`, `refs/…/<name>.lock` and the like while it writes, and removes them when it is done; a
 * studio killed in the middle of a git command (SIGKILL, the machine stopping) leaves them behind, and
 * every later git command in the clone then refuses ("Unable to create '….lock': File exists"). A lock
 * is stale when no git process works in the clone: the studio's own git commands (and decap-server's)
 * are gone with the studio, so only another program could still hold one. Linux's /proc says which
 * processes work in the clone (their working folder); where there is no /proc, the studio says which
 * locks are there instead of guessing.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { StudioRefusal } from "./git.ts";

/** Every `*.lock` file git may leave in a repository's git folder (its top level and its refs). */
export function lockFiles(repo: string): string[] {
  const gitDir = join(repo, ".git");
  if (!existsSync(gitDir)) return [];
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".lock")) found.push(path);
    }
  };
  for (const entry of readdirSync(gitDir, { withFileTypes: true }))
    if (entry.isFile() && entry.name.endsWith(".lock")) found.push(join(gitDir, entry.name));
  if (existsSync(join(gitDir, "refs"))) walk(join(gitDir, "refs"));
  return found.sort();
}

/** The git processes working in `repo` (their working folder inside it), by pid; undefined where /proc cannot tell. */
export function gitProcessesIn(repo: string): number[] | undefined {
  if (!existsSync("/proc/self/cwd")) return undefined;
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd !== repo && !cwd.startsWith(`${repo}/`)) continue;
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0")[0] ?? "";
      if (/^git(-|$)/.test(basename(command))) pids.push(Number(name));
    } catch {
      // Gone meanwhile, or another user's: not a git command of this studio.
    }
  }
  return pids;
}

/**
 * Removes the locks a killed studio left in its clone, once no git process works in it (it waits up
 * to `waitMs` for one to finish); refuses to start, in one sentence, when one still does.
 */
export async function clearStaleLocks(repo: string, waitMs = 30_000): Promise<void> {
  if (lockFiles(repo).length === 0) return;
  const until = Date.now() + waitMs;
  let working = gitProcessesIn(repo);
  while (working?.length && Date.now() < until) {
    await new Promise((done) => setTimeout(done, 200));
    working = gitProcessesIn(repo);
  }
  const locks = lockFiles(repo);
  if (locks.length === 0) return;
  const names = locks.map((lock) => relative(repo, lock)).join(", ");
  if (working === undefined)
    throw new StudioRefusal(
      `The studio's clone (${repo}) has git locks left by an interrupted run (${names}), and this system cannot tell whether a git command still holds them: remove them once no git command works in it, then start the studio again.`,
    );
  if (working.length)
    throw new StudioRefusal(
      `Another git command (process ${working.join(", ")}) is working in the studio's clone (${repo}): start the studio again once it has finished.`,
    );
  for (const lock of locks) {
    const age = Math.round((Date.now() - statSync(lock).mtimeMs) / 1000);
    rmSync(lock, { force: true });
    console.error(`studio: removed the stale git lock ${relative(repo, lock)} (${age} s old), left by a run that was stopped mid-command`);
  }
}
