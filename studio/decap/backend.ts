/**
 * The studio's side of decap-server: starts decap/child.ts on the studio's clone, on a Unix socket in a
 * private temporary folder, and forwards git actions to it. Nothing else on the machine can reach it:
 * no TCP port, the socket mode 0600 in a folder of mode 0700, owned by the studio's user.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface DecapBackend {
  /** The socket's path (for tests: its mode, and that nothing listens on TCP). */
  socket: string;
  process: ChildProcess;
  /** Sends one git action (Decap's JSON body) and resolves to decap-server's answer. */
  forward(body: string): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

export function startDecapBackend(repo: string): Promise<DecapBackend> {
  const folder = mkdtempSync(join(tmpdir(), "studio-decap-"));
  const socket = join(folder, "decap.sock");
  const child = fork(CHILD, [], {
    env: { ...process.env, GIT_REPO_DIRECTORY: repo, STUDIO_DECAP_SOCKET: socket },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const stop = () =>
    new Promise<void>((done) => {
      const finish = () => (rmSync(folder, { recursive: true, force: true }), done());
      if (child.exitCode !== null || child.signalCode !== null) return finish();
      child.once("exit", finish);
      child.kill("SIGTERM");
    });
  const forward = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = request(
        {
          socketPath: socket,
          // A connection of its own for each request: a kept-alive one that decap-server closes as it idles
          // out (5 s) can be picked for the next request on a loaded machine, whose write then fails (EPIPE).
          agent: false,
          path: "/api/v1",
          method: "POST",
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
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
  return new Promise((resolve, reject) => {
    child.once("message", (message) => {
      if (message === "listening") resolve({ socket, process: child, forward, stop });
    });
    child.once("exit", (code) => {
      rmSync(folder, { recursive: true, force: true });
      reject(new Error(`decap-server stopped (exit ${code}) before it listened`));
    });
  });
}
