/**
 * The git helper (decision 0061): a small process of its own that runs git for a larger one. It reads one
 * request a line on stdin (JSON: git's arguments, folder, environment and input) and answers each on a
 * line of stdout, in order, with what `spawnSync` gave. It ends when its stdin does, so it never outlives
 * the process that started it. It imports nothing of the studio: it stays small, and a fork from it
 * costs little.
 */
import { spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import type { GitAnswer, GitRequest } from "./protocol.ts";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const { args, cwd, env, input, maxBuffer } = JSON.parse(line) as GitRequest;
  const ran = spawnSync("git", args, {
    cwd,
    env,
    input,
    encoding: "utf8",
    maxBuffer,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  const failed = ran.error as (Error & Record<string, unknown>) | undefined;
  const answer: GitAnswer = {
    status: ran.status,
    signal: ran.signal,
    pid: ran.pid,
    stdout: ran.stdout ?? "",
    stderr: ran.stderr ?? "",
    error: failed && {
      message: failed.message,
      code: failed.code,
      errno: failed.errno,
      syscall: failed.syscall,
      path: failed.path,
      spawnargs: failed.spawnargs,
    },
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
lines.on("close", () => process.exit(0));
