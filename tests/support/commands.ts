/**
 * Commands run as a person types them, for the tests that run the README's commands and a production
 * install: each in a process group of its own (so that stopping it stops npm, node and whatever they
 * started), its output kept for the failure message. A command that serves is started until it prints
 * the line that says it does; one that ends is waited for.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../../lib/root.ts";

/**
 * The environment a person's shell has: without Vitest's own variables (NODE_ENV=test would make a build
 * bundle React's development build) and without npm's from the `npm test` that started the tests.
 */
export function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST") && !name.startsWith("npm_")),
  );
  return { ...env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}

export interface Ended {
  status: number | null;
  output: string;
}

/** A command in its own process group (so that stopping it stops what it started), its output piped. */
function spawnGroup(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return spawn(command, args, { cwd: options.cwd, env: options.env ?? shellEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
}

/** Runs a command to its end (or until `timeoutMs`, when its group is killed and the status is null). */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawnGroup(command, args, options);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), options.timeoutMs ?? 600_000);
    child.on("error", (error) => (output += `${String(error)}\n`));
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

export interface Serving {
  /** The ready line's match. */
  match: RegExpExecArray;
  output(): string;
  /** SIGTERM to its group, SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts a command and resolves once its output matches `ready`; rejects, with its output, if it ends first. */
export function startCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<Serving> {
  return new Promise((resolve, reject) => {
    const child = spawnGroup(command, args, options);
    let output = "";
    let ready = false;
    const exited = new Promise<void>((done) => child.once("close", () => done()));
    const timer = setTimeout(() => {
      killGroup(child, "SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not print ${options.ready} within ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs ?? 300_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = !ready && options.ready.exec(output);
      if (!match) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        match,
        output: () => output,
        async stop(graceMs = 10_000) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          killGroup(child, "SIGTERM");
          const kill = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
          await exited;
          clearTimeout(kill);
        },
      });
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("error", (error) => (output += `${String(error)}\n`));
    child.once("close", (status) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${command} ${args.join(" ")} ended (exit ${status}) before it printed ${options.ready}:\n${output}`));
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

/**
 * A fresh clone of this repository's HEAD, checked out as `main` (the branch the studio's git host and
 * the records read), in a new temporary folder: what someone who clones the project gets, nothing
 * uncommitted. `remove` deletes it, off the event loop: a production install's node_modules took
 * minutes to delete on a loaded machine, and a synchronous delete held every timer of the test file.
 */
export async function freshClone(prefix: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(scratch, "project");
  for (const args of [
    ["clone", "--quiet", "--no-hardlinks", projectRoot, dir],
    ["-C", dir, "checkout", "--quiet", "-B", "main"],
  ]) {
    const result = await runCommand("git", args, { cwd: scratch });
    if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed:\n${result.output}`);
  }
  return { dir, remove: () => rm(scratch, { recursive: true, force: true }) };
}
