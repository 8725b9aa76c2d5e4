/**
 * Serves a folder with Cloudflare's own runtime: `wrangler pages dev`, which runs the Pages asset
 * server in workerd (both from npm, offline), as Cloudflare Pages would serve that folder: its
 * `_headers`, `_redirects`, pretty URLs and not-found page. Used by tests/server/hosts.test.ts.
 * Nothing leaves the machine: the `Request.cf` download, metrics, the update check and the banner
 * (which runs the update check) are switched off, and npm's registry is pointed at a closed local port.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { onFreePort, PortTakenError } from "../lib/ports.ts";
import { projectRoot } from "../lib/root.ts";

const require = createRequire(import.meta.url);

/**
 * The newest compatibility date the installed workerd supports: its version is `1.YYYYMMDD.N`.
 * Without one, wrangler asks for today's date, which a pinned workerd refuses.
 */
export function compatibilityDate(): string {
  const version: string = require("workerd/package.json").version;
  const match = /^\d+\.(\d{4})(\d{2})(\d{2})\./.exec(version);
  if (!match) throw new Error(`cannot read a date from workerd ${version}`);
  return `${match[1]}-${match[2]}-${match[3]}`;
}

export interface LocalEdge {
  origin: string;
  stop(): Promise<void>;
}

export function startWrangler(options: { root: string; timeoutMs?: number }): Promise<LocalEdge> {
  return onFreePort((port) => startOn(port, options.root, options.timeoutMs ?? 60_000));
}

async function startOn(port: number, root: string, timeoutMs: number): Promise<LocalEdge> {
  // wrangler writes state, logs and caches into its working and home folders: a throwaway folder each.
  const scratch = mkdtempSync(join(tmpdir(), "site-wrangler-"));
  const wrangler = join(projectRoot, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = ["pages", "dev", resolve(root), "--ip", "127.0.0.1", "--port", String(port), "--compatibility-date", compatibilityDate()];
  // Its own process group: wrangler starts workerd, and stopping the group stops both.
  const child = spawn(process.execPath, [wrangler, ...args], {
    cwd: scratch,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      CI: "1",
      NO_COLOR: "1",
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      WRANGLER_HIDE_BANNER: "true",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_LOG_PATH: join(scratch, "logs"),
      WRANGLER_CACHE_DIR: join(scratch, "cache"),
      WRANGLER_REGISTRY_PATH: join(scratch, "registry"),
      XDG_CONFIG_HOME: join(scratch, "config"),
      npm_config_registry: "http://127.0.0.1:9/",
    },
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  // A test process that ends without stop() (a crash, a timeout) must not leave workerd behind.
  const orphanGuard = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  };
  process.once("exit", orphanGuard);
  void exited.then(() => process.off("exit", orphanGuard));
  const stopGroup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  };
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler pages dev did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Printed once workerd has bound the port: the address is ours.
      const ready = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (/Address already in use/.test(output)) reject(new PortTakenError(`port ${port} was taken`));
      else reject(new Error(`wrangler pages dev exited (${code}) before it was ready:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stopGroup();
    throw error;
  });
  return { origin, stop: stopGroup };
}
