/**
 * The team studio as a process of its own (`node studio/index.ts` in server mode), for the benches and
 * the tests that run it as an operator would: its environment, made from the demo's sign-in service and
 * git host, and its start, until it prints its address.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";

/** What server mode needs (studio/README.md), from the demo's parts. */
export function serverStudioEnv(parts: {
  url: string;
  port: number;
  idp: { issuer: string; clientId: string; clientSecret: string };
  remote: string;
  stateDir: string;
}): Record<string, string> {
  return {
    STUDIO_MODE: "server",
    STUDIO_PUBLIC_URL: parts.url,
    OIDC_ISSUER: parts.idp.issuer,
    OIDC_CLIENT_ID: parts.idp.clientId,
    OIDC_CLIENT_SECRET: parts.idp.clientSecret,
    STUDIO_GIT_REMOTE: parts.remote,
    STUDIO_STATE_DIR: parts.stateDir,
    HOST: "127.0.0.1",
    PORT: String(parts.port),
  };
}

/**
 * Starts `node studio/index.ts` in `project` (its own process group) and resolves once it prints `url`,
 * with the child and a promise of its end (for after the caller stops it).
 */
export async function spawnServerStudio(
  project: string,
  env: Record<string, string>,
  url: string,
): Promise<{ child: ChildProcessByStdio<null, Readable, null>; ended: Promise<number | null> }> {
  const child = spawn(process.execPath, ["studio/index.ts"], {
    cwd: project,
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const ended = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await Promise.race([
    ended.then((code) => Promise.reject(new Error(`the studio stopped (exit ${code})`))),
    new Promise<void>((resolve) => child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes(url) && resolve())),
  ]);
  return { child, ended };
}
