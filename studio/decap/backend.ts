/**
 * The studio's side of decap-server: starts decap/child.ts on the studio's clone, on a Unix socket in a
 * private temporary folder, and forwards git actions to it. Nothing else on the machine can reach it:
 * no TCP port, the socket mode 0600 in a folder of mode 0700, owned by the studio's user. When the
 * child stops on its own (a crash, the kernel's OOM killer), the studio notices and starts it again
 * (after 1 s, doubling up to 30 s while it keeps failing); a call meanwhile waits for it a little, then
 * gets one sentence. The socket's path and the child's exit go to the studio's log only.
 *
 * The folder is named by the studio's process (`studio-decap-<pid>-<random>`) and removed when the studio
 * stops. A studio killed outright (SIGKILL, a lost machine) cannot remove its own: the next studio to start
 * removes every such folder whose process is no longer running.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isRunning } from "../../lib/processes.ts";

export interface DecapBackend {
  /** The socket's path (for tests: its mode, and that nothing listens on TCP). */
  socket: string;
  /** decap-server's process now (another after a restart). */
  readonly process: ChildProcess;
  /**
   * Sends one git action (Decap's JSON body) and resolves to decap-server's answer; a DecapUnavailable when
   * it cannot. `reads`: the action changes nothing, so one cut short (decap-server died with it) is sent
   * again once it is back, as one it never received is. `author`: who its commits are authored by.
   */
  forward(body: string, options?: { reads?: boolean; author?: Author }): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

/** The person a write's commits name as their author (decap-server commits with git, which reads it from its environment). */
export interface Author {
  name: string;
  email: string;
}
/** The header that carries it to the child (JSON in base64: a name may be any text), which only the studio can reach. */
export const AUTHOR_HEADER = "x-studio-author";

/** decap-server is not there (stopped, starting again): the sentence a person reads. */
export class DecapUnavailable extends Error {}

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));
/** How long a call waits for decap-server to be back before it is answered with a sentence. */
const WAIT_MS = 15_000;
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;
const RESTARTING =
  "The studio's editing service stopped and is starting again: nothing was changed; try again in a moment. If it goes on, tell the studio's administrator.";
const CUT_SHORT =
  "The studio's editing service stopped while doing that, and is starting again: reload the entry to see what was saved, then try again.";

/** Failures before a request is sent: nobody listens on the socket (yet), or the connection failed. */
const notSent = (error: NodeJS.ErrnoException) => error.syscall === "connect" || error.code === "ECONNREFUSED" || error.code === "ENOENT";

/** A socket folder's name, and the process that made it. */
const FOLDER = /^studio-decap-(\d+)-[A-Za-z0-9]+$/;

/** Removes the socket folders of studios no longer running (killed before they could remove their own). */
function removeDeadFolders(tmp: string) {
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return;
  }
  for (const name of names) {
    // A running process's folder, this process's own included, is left alone.
    const pid = FOLDER.exec(name)?.[1];
    if (!pid || isRunning(Number(pid))) continue;
    try {
      rmSync(join(tmp, name), { recursive: true, force: true });
    } catch {
      // Another user's, or removed meanwhile by another studio starting: left as it is.
    }
  }
}

export function startDecapBackend(repo: string): Promise<DecapBackend> {
  removeDeadFolders(tmpdir());
  const folder = mkdtempSync(join(tmpdir(), `studio-decap-${process.pid}-`));
  const socket = join(folder, "decap.sock");
  let child!: ChildProcess;
  let stopping = false;
  let delay = FIRST_RETRY_MS;
  /** Resolves once a child listens; replaced while one is being started again. */
  let ready: Promise<void>;

  /** One child, resolved once it listens; an exit after that starts another. */
  const spawnChild = () =>
    new Promise<void>((resolve, reject) => {
      const started = fork(CHILD, [], {
        env: { ...process.env, GIT_REPO_DIRECTORY: repo, STUDIO_DECAP_SOCKET: socket },
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      child = started;
      let listening = false;
      started.on("message", (message) => {
        if (message !== "listening") return;
        listening = true;
        delay = FIRST_RETRY_MS;
        resolve();
      });
      started.once("exit", (code, signal) => {
        if (!listening) return reject(new Error(`decap-server stopped (${signal ?? `exit ${code}`}) before it listened on ${socket}`));
        if (stopping) return;
        console.error(`studio: decap-server (process ${started.pid}) stopped (${signal ?? `exit ${code}`}); starting it again`);
        ready = restart();
      });
    });

  const restart = async (): Promise<void> => {
    while (!stopping) {
      try {
        return await spawnChild();
      } catch (error) {
        console.error(`studio: decap-server could not be started again (${(error as Error).message}); trying again in ${delay / 1000} s`);
        await new Promise((done) => setTimeout(done, delay).unref());
        delay = Math.min(delay * 2, LAST_RETRY_MS);
      }
    }
  };

  const send = (body: string, author?: Author) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = request(
        {
          socketPath: socket,
          // A connection of its own for each request: a kept-alive one could be a dead child's, or one decap-server
          // closes as it idles out (5 s), whose write then fails (EPIPE); and a failure could not tell whether it was sent.
          agent: false,
          path: "/api/v1",
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(body),
            ...(author ? { [AUTHOR_HEADER]: Buffer.from(JSON.stringify(author)).toString("base64") } : {}),
          },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => resolve({ status: answer.statusCode ?? 502, text: Buffer.concat(chunks).toString("utf8") }));
          answer.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });

  /** Waits for a listening child (at most WAIT_MS); false when there is none by then. */
  const waitReady = async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((done) => (timer = setTimeout(done, WAIT_MS, false)));
    const back = await Promise.race([ready.then(() => true), late]);
    clearTimeout(timer);
    return back && !stopping;
  };

  async function forward(body: string, { reads = false, author }: { reads?: boolean; author?: Author } = {}) {
    for (let attempt = 1; ; attempt++) {
      if (!(await waitReady())) throw new DecapUnavailable(RESTARTING);
      try {
        return await send(body, author);
      } catch (error) {
        console.error(`studio: a call to decap-server (${socket}) failed: ${(error as Error).message}`);
        // Refused before anything was sent: safe to send again once the child is back. Cut short: only a read.
        if (!reads && !notSent(error as NodeJS.ErrnoException)) throw new DecapUnavailable(CUT_SHORT);
        if (attempt >= 3) throw new DecapUnavailable(RESTARTING);
        // The child's exit is noticed within moments; then `ready` waits for the next one.
        await new Promise((done) => setTimeout(done, 500));
      }
    }
  }

  const stop = () => {
    stopping = true;
    return new Promise<void>((done) => {
      const finish = () => (rmSync(folder, { recursive: true, force: true }), done());
      if (child.exitCode !== null || child.signalCode !== null) return finish();
      child.once("exit", finish);
      child.kill("SIGTERM");
    });
  };

  ready = spawnChild();
  return ready.then(
    () => ({
      socket,
      get process() {
        return child;
      },
      forward,
      stop,
    }),
    (error: unknown) => {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    },
  );
}
