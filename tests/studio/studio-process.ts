/**
 * The team studio in a process of its own (`node studio/index.ts` in this checkout, as `STUDIO_MODE=server
 * npm run studio` starts it), between the demo's IdP and a git host seeded from a throw-away clone of
 * this project, both in this process: so that a test can kill it
 * for real (SIGKILL to its process group: the studio, decap-server and every git command it runs, as
 * systemd kills a service) and start it again on the same address and state directory.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "@playwright/test";
import { onFreePort, PortTakenError } from "../../lib/ports.ts";
import { projectRoot } from "../../lib/root.ts";
import { startDemoIdp, type DemoIdp, type DemoUser } from "../../testing/demo/idp.ts";
import { startGitHost, STUDIO_ACCOUNT, type GitHost } from "../../testing/demo/git-host.ts";
import { throwawayProject } from "../../testing/studio/trial.ts";
import { studioChromium } from "../../testing/studio/browser.ts";
import type { TeamView } from "../../testing/studio/team-support.ts";
import { serverStudioEnv } from "../../testing/studio/server-studio.ts";

export interface StudioProcess extends TeamView {
  idp: DemoIdp;
  host: GitHost;
  project: string;
  /** The studio's state directory (its clone is `<stateDir>/repo`). */
  stateDir: string;
  /** What the studio wrote to stdout and stderr since it was last started. */
  output(): string;
  /** git in the host's bare repository. */
  origin(...args: string[]): string;
  /** SIGKILL to the studio's whole process group; resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts the studio again (same address; another state directory when given). */
  start(stateDir?: string): Promise<void>;
  browser: Browser;
  stop(): Promise<void>;
}

const gitIn =
  (cwd: string) =>
  (...args: string[]) =>
    execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

export async function startStudioProcess(): Promise<StudioProcess> {
  const { project, remove } = throwawayProject();
  const folder = join(project, "..", "team");
  const host = await startGitHost(project, join(folder, "host"));
  const idp = await startDemoIdp();
  const browser = await studioChromium();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = "";
  let url = "";
  let stateDir = join(folder, "studio");

  /** Resolves once the studio says where it listens; PortTakenError when its port was taken meanwhile. */
  const launch = (port: number) =>
    new Promise<void>((resolve, reject) => {
      url = `http://127.0.0.1:${port}`;
      idp.register(url);
      output = "";
      // This checkout's code (the throw-away clone has its last commit only); the state and the host are the test's own.
      const started = spawn(process.execPath, ["studio/index.ts"], {
        cwd: projectRoot,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "NODE_ENV")),
          ...serverStudioEnv({ url, port, idp, remote: host.urlFor(STUDIO_ACCOUNT), stateDir }),
        },
      });
      child = started;
      exited = new Promise((done) => started.once("exit", () => done()));
      const heard = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes("Content studio: ")) resolve();
      };
      started.stdout!.on("data", heard);
      started.stderr!.on("data", heard);
      started.once("exit", (code, signal) => {
        if (output.includes("Content studio: ")) return;
        reject(output.includes("is in use") ? new PortTakenError(output) : new Error(`the studio stopped (${signal ?? code}):\n${output}`));
      });
    });

  const people: StudioProcess = {
    get url() {
      return url;
    },
    idp,
    host,
    project,
    get stateDir() {
      return stateDir;
    },
    browser,
    person: (email: string): DemoUser => idp.users.find((u) => u.email === email)!,
    output: () => output,
    origin: gitIn(host.bare),
    clone: (...args: string[]) => gitIn(join(stateDir, "repo"))(...args),
    async kill() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
    async start(another?: string) {
      if (another) stateDir = another;
      const port = url ? Number(new URL(url).port) : undefined;
      await onFreePort(launch, port === undefined ? {} : { port });
    },
    async stop() {
      await people.kill();
      await browser.close();
      await Promise.all([idp.stop(), host.stop()]);
      remove();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await people.start();
  } catch (error) {
    await people.stop();
    throw error;
  }
  return people;
}
