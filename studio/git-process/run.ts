/**
 * git run from a small process of its own when the studio's process is large (decision 0061).
 *
 * Node starts a process by fork and exec, and a fork copies the parent's page tables: here a git started
 * from a process of 50 MB takes 14 ms, 6 ms of it the parent's CPU; from one of 500 MB 37 ms and 39 ms of
 * the machine's CPU, most of it before git runs. The studio (270–350 MB) and the suites' workers, which
 * run studios, are that large. So once the process is over HELPER_FROM_RSS, a command goes to the git
 * helper (helper.ts), a process of about 70 MB that starts git for it, through the bridge thread
 * (bridge.ts): 13 ms and 15 ms of the machine's CPU. The answer is the same as execFileSync's, its error
 * too: `status`, `signal`, `stdout`, `stderr` and the message "Command failed: git …". A helper that
 * cannot start costs nothing but the try: the command runs in the process, as before. A command is never
 * run twice: one the helper may have started and not answered fails as a killed git would.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { GitAnswer, GitRequest, HelperGone } from "./protocol.ts";

/** Above this resident size a fork costs more than the helper's round trip. */
export const HELPER_FROM_RSS = 120 * 1024 * 1024;
/** What git may print for one command (the review log, a document): past Node's default 1 MB. */
export const GIT_MAX_BUFFER = 64 * 1024 * 1024;
/** How long the studio's thread waits for the bridge before it says so (a git command is milliseconds). */
const BRIDGE_CEILING_MS = 10 * 60_000;

export interface GitOptions {
  cwd: string;
  /** git's environment (the process's when not given). */
  env?: NodeJS.ProcessEnv;
  /** What git reads on its stdin. */
  input?: string;
  /**
   * Keep git's stderr to the error it throws (execFileSync with `stdio` given); otherwise it is also
   * written to the process's stderr, as execFileSync does by default.
   */
  quiet?: boolean;
}

interface Bridge {
  port: MessagePort;
  flag: Int32Array;
}

/** One bridge per process, whichever copy of this module asks (a test runner may load it more than once). */
const BRIDGE = Symbol.for("studio.git-process.bridge");
const holder = globalThis as { [BRIDGE]?: Bridge | null };

function bridge(): Bridge | null {
  if (holder[BRIDGE] !== undefined) return holder[BRIDGE];
  try {
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const helper = fileURLToPath(new URL("./helper.ts", import.meta.url));
    const worker = new Worker(new URL("./bridge.ts", import.meta.url), {
      workerData: { port: port2, flag, helper },
      transferList: [port2],
    });
    // Neither keeps the process alive: the helper ends with it (its stdin closes).
    worker.unref();
    worker.once("error", () => (holder[BRIDGE] = null));
    holder[BRIDGE] = { port: port1, flag };
  } catch {
    holder[BRIDGE] = null;
  }
  return holder[BRIDGE];
}

/** The error execFileSync throws for what spawnSync gave (Node's checkExecSyncError), or undefined when git succeeded. */
function failure(args: string[], answer: GitAnswer): Error | undefined {
  const ran = {
    status: answer.status,
    signal: answer.signal,
    pid: answer.pid,
    output: [null, answer.stdout, answer.stderr],
    stdout: answer.stdout,
    stderr: answer.stderr,
  };
  if (answer.error) return Object.assign(new Error(answer.error.message), answer.error, ran);
  if (answer.status === 0) return undefined;
  return Object.assign(new Error(`Command failed: git ${args.join(" ")}${answer.stderr ? `\n${answer.stderr}` : ""}`), ran);
}

/** Through the helper; undefined when there is none to ask (the caller runs git itself). */
function throughHelper(request: GitRequest): GitAnswer | undefined {
  const to = bridge();
  if (!to) return undefined;
  Atomics.store(to.flag, 0, 0);
  to.port.postMessage(request);
  const killed = (why: string): GitAnswer => ({ status: null, signal: "SIGKILL", pid: 0, stdout: "", stderr: `${why}\n` });
  if (Atomics.wait(to.flag, 0, 0, BRIDGE_CEILING_MS) === "timed-out") {
    // The bridge is gone or stuck: the next commands run in the process. This one may be running still.
    holder[BRIDGE] = null;
    return killed(`the git helper did not answer in ${BRIDGE_CEILING_MS / 60_000} minutes`);
  }
  const message = receiveMessageOnPort(to.port)?.message as GitAnswer | HelperGone | undefined;
  if (!message || ("gone" in message && !message.ran)) return undefined;
  return "gone" in message ? killed(message.gone) : message;
}

/**
 * `execFileSync("git", args, { cwd, env, input, encoding: "utf8", maxBuffer: GIT_MAX_BUFFER })`, its
 * output untrimmed, through the helper when the process is large. `via` is for the tests of both ways.
 */
export function runGit(args: string[], options: GitOptions, via: "auto" | "helper" | "process" = "auto"): string {
  const { cwd, env = process.env, input, quiet = false } = options;
  const useHelper = via === "helper" || (via === "auto" && process.memoryUsage.rss() >= HELPER_FROM_RSS);
  const answer = useHelper ? throughHelper({ args, cwd, env, input, maxBuffer: GIT_MAX_BUFFER }) : undefined;
  if (!answer)
    return execFileSync("git", args, {
      cwd,
      env,
      input,
      encoding: "utf8",
      maxBuffer: GIT_MAX_BUFFER,
      ...(quiet ? { stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] } : {}),
    });
  if (!quiet && answer.stderr) process.stderr.write(answer.stderr);
  const error = failure(args, answer);
  if (error) throw error;
  return answer.stdout;
}
