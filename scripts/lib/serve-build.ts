/**
 * Serves a build with the project's own server (server/index.ts) for a script or a test run: on a
 * loopback port the OS picks (PORT=0; the server prints the URL it bound), so that runs side by side
 * never collide. `env` selects another build (SITE_OUT_DIR) and configuration.
 */
import { spawn } from "node:child_process";
import { projectRoot } from "../../lib/root.ts";

const root = projectRoot;

export interface ServedBuild {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the server and resolves with its origin once it listens; rejects with its output if it exits first. */
export function serveBuild(env: Record<string, string> = {}): Promise<ServedBuild> {
  const server = spawn(process.execPath, ["server/index.ts"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      await exited;
    }
  };
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) resolve({ origin: url, pid: server.pid ?? 0, stop });
    };
    server.stdout.on("data", onData);
    server.stderr.on("data", onData);
    server.once("exit", (code) => reject(new Error(`server/index.ts exited (${code}) before it listened:\n${output}`)));
  });
}
