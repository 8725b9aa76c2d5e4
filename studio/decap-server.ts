/** decap-server in git mode on the studio's clone, on loopback, on a port the OS names (again on another if it is taken). */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { onFreePort, PortTakenError } from "../scripts/lib/ports.ts";

export interface DecapServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function startDecapServer(repo: string): Promise<DecapServer> {
  const entry = createRequire(import.meta.url).resolve("decap-server");
  return onFreePort(
    (port) =>
      new Promise<DecapServer>((resolve, reject) => {
        const child = spawn(process.execPath, [entry], {
          env: { ...process.env, MODE: "git", GIT_REPO_DIRECTORY: repo, PORT: String(port), BIND_HOST: "127.0.0.1", LOG_LEVEL: "info" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        // Only what is needed to see it listen or fail; read on after that (a full pipe would stall it), kept no longer.
        let output = "";
        let settled = false;
        const stop = () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          });
        const onData = (chunk: Buffer) => {
          if (settled) return;
          output = (output + chunk.toString()).slice(-8192);
          if (output.includes(`listening on 127.0.0.1:${port}`)) {
            settled = true;
            resolve({ url: `http://127.0.0.1:${port}`, process: child, stop });
          } else if (output.includes("EADDRINUSE")) {
            settled = true;
            void stop().then(() => reject(new PortTakenError(`port ${port} taken`)));
          }
        };
        child.stdout!.on("data", onData);
        child.stderr!.on("data", onData);
        child.once("exit", (code) => {
          if (!settled) reject(new Error(`decap-server stopped (exit ${code}) before it listened:\n${output.slice(-2000)}`));
        });
      }),
  );
}
