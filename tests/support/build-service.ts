/**
 * Global setup of the projects whose suites start studios (heavy, records): one build worker for the
 * whole run, shared by every studio the suites start (decision 0060). A studio's own worker starts cold
 * in each test file (Vitest gives each file its modules anew): a cold build took 6.1 s and 8.3 CPU-s
 * where a warm one took 2.4 s and 3.2 CPU-s, and a studio in server mode makes a warm-up build of main as it starts.
 *
 * This process holds the queue: studios connect to a Unix socket (its path in SHARED_BUILD_WORKER, which
 * every worker of the run inherits), are told whether the worker is warm, and send the requests the
 * worker takes (build-worker.ts), one JSON line each. Their builds run one at a time in the order asked, in
 * the same worker the studio would start (build-worker.ts, unchanged), which still leaves after a failed
 * build and past its memory bound: the next build starts another. A request whose studio has gone is
 * dropped. A studio that cannot reach the socket starts its own worker, as in production. Asked
 * `{ served: true }`, it answers with every build folder it has built (`servedBuilds`), so that a suite can
 * show that its studios' builds were the shared worker's.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { groupEnded } from "../../lib/processes.ts";
import { projectRoot } from "../../lib/root.ts";
import type { BuildAnswer, BuildRequest } from "../../studio/workflow/build-worker.ts";
import { SHARED_BUILD_WORKER } from "../../studio/workflow/builds.ts";

const WORKER = join(projectRoot, "studio", "workflow", "build-worker.ts");

/** The queue and its worker (`workerFile`: build-worker.ts, or a test's stand-in), listening on a socket of its own. */
export async function startBuildService(workerFile = WORKER): Promise<{ path: string; connections(): number; stop(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), "build-service-"));
  const path = join(folder, "socket");
  let worker: { child: ChildProcess; output: string; warm: boolean } | undefined;
  const queue: Array<{ socket: Socket; request: BuildRequest }> = [];
  let busy = false;
  /** Every folder built, in the order built. */
  const served: string[] = [];

  const start = () => {
    const child = fork(workerFile, [], {
      cwd: projectRoot,
      detached: true,
      execArgv: ["--expose-gc"],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    const started = { child, output: "", warm: false };
    const keep = (chunk: Buffer) => (started.output = (started.output + chunk.toString("utf8")).slice(-16_000));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    child.once("exit", () => {
      if (worker === started) worker = undefined;
    });
    return started;
  };

  /** The request being built, and its studio's socket. */
  let building: { socket: Socket; request: BuildRequest } | undefined;

  const next = () => {
    if (busy) return;
    const item = queue.shift();
    if (!item) return;
    if (item.socket.destroyed) return next();
    busy = true;
    building = item;
    const current = (worker ??= start());
    current.output = "";
    const { build } = item.request;
    const finish = (answer: BuildAnswer) => {
      current.child.off("message", answered);
      current.child.off("exit", ended);
      busy = false;
      building = undefined;
      if (!item.socket.destroyed) item.socket.write(`${JSON.stringify(answer)}\n`);
      next();
    };
    const answered = (answer: BuildAnswer) => {
      const mine = "built" in answer ? answer.built === build : answer.failed === build;
      // Ending after this answer (after a failed build, or over its memory limit: build-worker.ts): the next
      // build is a new worker's, cold, and never sent to this one while it ends. The studios keep their socket.
      if (mine && answer.leaving) {
        current.warm = false;
        if (worker === current) worker = undefined;
      }
      if ("built" in answer && answer.built === build) {
        if (!answer.leaving) current.warm = true;
        served.push(build);
        finish({ built: build });
      } else if ("failed" in answer && answer.failed === build) {
        finish({ failed: build, error: `${current.output}\n${answer.error}` });
      }
    };
    const ended = (code: number | null, signal: string | null) =>
      finish({ failed: build, error: `${current.output}\nthe build worker ended with ${signal ?? `exit ${code}`}` });
    current.child.on("message", answered);
    current.child.once("exit", ended);
    current.child.send(item.request);
  };

  /**
   * A studio stopping (or gone): its requests still queued are dropped, and a build of its under way is
   * stopped with the worker's whole process group, as a studio's own worker is (builds.ts); resolves once
   * that group has ended, so that the studio removes the build's folder after the last write into it.
   */
  const leave = async (socket: Socket) => {
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.socket === socket) queue.splice(i, 1);
    const pid = building?.socket === socket ? worker?.child.pid : undefined;
    if (!pid) return;
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // Ended meanwhile.
    }
    await groupEnded(pid);
  };

  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      void leave(socket);
    });
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.write(`${JSON.stringify({ warm: worker?.warm ?? false })}\n`);
    let lines = "";
    socket.on("data", (chunk: string) => {
      lines += chunk;
      for (let end = lines.indexOf("\n"); end >= 0; end = lines.indexOf("\n")) {
        const message = JSON.parse(lines.slice(0, end)) as BuildRequest | { stop: true } | { served: true };
        lines = lines.slice(end + 1);
        if ("stop" in message) void leave(socket).then(() => socket.end(`${JSON.stringify({ stopped: true })}\n`));
        else if ("served" in message) socket.write(`${JSON.stringify({ served })}\n`);
        else queue.push({ socket, request: message });
      }
      next();
    });
  });
  await new Promise<void>((listening, failed) => server.once("error", failed).listen(path, listening));
  return { path, connections: () => sockets.size, stop };

  async function stop() {
    await new Promise<void>((closed) => {
      server.close(() => closed());
      for (const socket of sockets) socket.destroy();
    });
    const pid = worker?.child.pid;
    if (pid) {
      try {
        process.kill(-pid, "SIGTERM");
      } catch {
        // Ended meanwhile.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The folders the run's shared worker has built (the service at `path`, the run's by default). */
export async function servedBuilds(path = process.env[SHARED_BUILD_WORKER]): Promise<string[]> {
  if (!path) throw new Error(`${SHARED_BUILD_WORKER} is not set: no shared build worker in this run`);
  const socket = createConnection(path);
  try {
    socket.write(`${JSON.stringify({ served: true })}\n`);
    // The greeting ({ warm }) comes first, then the answer.
    for await (const line of createInterface({ input: socket })) {
      const { served } = JSON.parse(line) as { served?: string[] };
      if (served) return served;
    }
    throw new Error("the build service closed the socket before answering");
  } finally {
    socket.destroy();
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // Set up once a run (each project of the Node group names this), or given by the caller.
  if (process.env[SHARED_BUILD_WORKER]) return undefined;
  const service = await startBuildService();
  process.env[SHARED_BUILD_WORKER] = service.path;
  return async () => {
    delete process.env[SHARED_BUILD_WORKER];
    await service.stop();
  };
}
