/**
 * The bridge (decision 0061): a worker thread of the studio's process that talks to the git helper
 * (helper.ts) for it. The studio's thread posts a request and waits on a shared flag (Atomics.wait);
 * this thread, whose event loop keeps running, writes it to the helper, and posts the helper's answer
 * back before raising the flag. It starts the helper at the first request and again after it ended, and
 * answers `{ gone }` for a request the helper could not answer, so the studio's thread never waits for
 * a helper that is not there.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { workerData, type MessagePort } from "node:worker_threads";
import type { GitAnswer, GitRequest, HelperGone } from "./protocol.ts";

const { port, flag, helper } = workerData as { port: MessagePort; flag: Int32Array; helper: string };

const answer = (message: GitAnswer | HelperGone) => {
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
};

let child: ChildProcessByStdio<Writable, Readable, null> | undefined;
/** The requests written to the helper and not answered yet, oldest first (one at a time, in practice). */
const waiting: Array<(message: GitAnswer | HelperGone) => void> = [];

function start() {
  const started = spawn(process.execPath, [helper], { stdio: ["pipe", "pipe", "inherit"] });
  const gone = (why: string, ran: boolean) => {
    if (child === started) child = undefined;
    for (const reply of waiting.splice(0)) reply({ gone: why, ran });
  };
  started.once("error", (error) => gone(`the git helper could not start: ${error.message}`, false));
  // After its stdout's last line: an answer it wrote before it ended is read first.
  started.once("close", (code, signal) => gone(`the git helper ended (${signal ?? `exit ${code}`}) while git ran`, true));
  // A write after it ended: answered by "close" above.
  started.stdin.on("error", () => undefined);
  createInterface({ input: started.stdout, crlfDelay: Infinity }).on("line", (line) => waiting.shift()?.(JSON.parse(line) as GitAnswer));
  return started;
}

port.on("message", (request: GitRequest) => {
  child ??= start();
  waiting.push(answer);
  child.stdin.write(`${JSON.stringify(request)}\n`);
});
