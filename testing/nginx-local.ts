/**
 * Starts Debian's nginx (or any nginx on PATH) in the foreground with deploy/nginx/site.conf.template
 * over dist/, on a loopback port, in a throwaway prefix directory. Used by tests/server/nginx.test.ts
 * and bench/server.ts. Works wherever the checkout is, as root and as an ordinary user:
 * - as root, the workers drop to nobody (never root: they parse every request), and nobody cannot enter
 *   a checkout only its owner can (made by `mktemp -d`, or under /root), so they serve a copy of the
 *   site in the prefix, open to everyone;
 * - as an ordinary user, nginx cannot switch users: its workers are that user and read the site in place.
 */
import { BROTLI_MODULE, findNginx } from "../scripts/lib/system-deps.ts";
import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onFreePort, PortTakenError } from "../lib/ports.ts";
import { projectRoot } from "../lib/root.ts";

const MIME_TYPES = ["/etc/nginx/mime.types", "/usr/local/etc/nginx/mime.types"];

/** Fills in the template's two placeholders exactly as envsubst does in the nginx image. */
export function renderSiteConf(listen: string, siteRoot: string): string {
  return readFileSync(join(projectRoot, "deploy/nginx/site.conf.template"), "utf8")
    .replaceAll("${NGINX_LISTEN}", listen)
    .replaceAll("${SITE_ROOT}", siteRoot);
}

export interface LocalNginx {
  origin: string;
  port: number;
  pid: number;
  brotli: boolean;
  /** The folder nginx serves: the site itself, or (as root) its copy in the prefix. */
  root: string;
  /** What nginx has written to its error log (level warn and above) so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * `root`: the folder served (dist/ by default); `headers`: the security-header include of the build that
 * made it (the main build's, deploy/nginx/generated/, by default: another build's CSP hashes differ).
 */
export async function startNginx(
  options: { root?: string; headers?: string; port?: number; workers?: number | "auto" } = {},
): Promise<LocalNginx> {
  const nginx = findNginx();
  if (!nginx)
    throw new Error("nginx is not installed (CI installs Debian's nginx; locally: apt-get install nginx libnginx-mod-http-brotli-static)");
  const headers = options.headers ?? join(projectRoot, "deploy/nginx/generated/security-headers.conf");
  if (!existsSync(headers)) throw new Error(`${headers} is missing: run "npm run build" first`);
  const mime = MIME_TYPES.find((p) => existsSync(p));
  if (!mime) throw new Error("nginx mime.types not found");
  return onFreePort((port) => startOn(port, nginx, headers, mime, options), { port: options.port });
}

/** A copy of `from` at `to` that any user can read: folders 755, files 644, times kept (ETag, Last-Modified). */
export function copyOpenToAll(from: string, to: string): string {
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
  chmodSync(to, 0o755);
  for (const entry of readdirSync(to, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
  return to;
}

async function startOn(
  port: number,
  nginx: string,
  headers: string,
  mime: string,
  options: { root?: string; workers?: number | "auto" },
): Promise<LocalNginx> {
  const brotli = existsSync(BROTLI_MODULE);
  const isRoot = process.getuid?.() === 0;

  const prefix = mkdtempSync(join(tmpdir(), "site-nginx-"));
  // Workers run as nobody when we are root: they must reach the temp paths and the site.
  chmodSync(prefix, 0o755);
  const site = options.root ?? join(projectRoot, "dist");
  const root = isRoot ? copyOpenToAll(site, join(prefix, "site")) : site;
  mkdirSync(join(prefix, "snippets"));
  copyFileSync(headers, join(prefix, "snippets/security-headers.conf"));
  copyFileSync(mime, join(prefix, "mime.types"));
  if (brotli) writeFileSync(join(prefix, "snippets/brotli-static.conf"), "brotli_static on;\n");
  writeFileSync(join(prefix, "site.conf"), renderSiteConf(`127.0.0.1:${port}`, root));
  const conf = join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    [
      brotli ? `load_module ${BROTLI_MODULE};` : "",
      isRoot ? "user nobody nogroup;" : "",
      `worker_processes ${options.workers ?? "auto"};`,
      "daemon off;",
      "master_process on;",
      `pid ${join(prefix, "nginx.pid")};`,
      "error_log stderr warn;",
      "events { worker_connections 1024; }",
      "http {",
      "  include mime.types;",
      "  default_type application/octet-stream;",
      "  access_log off;",
      "  sendfile on;",
      "  tcp_nopush on;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${join(prefix, t)};`),
      "  include site.conf;",
      "}",
      "",
    ].join("\n"),
  );

  const child = spawn(nginx, ["-p", prefix, "-c", conf, "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  // Ready when our own master has bound the port (it writes its pid file only after binding; a port
  // taken by another server would answer the probe too) and answers a request.
  const pidFile = join(prefix, "nginx.pid");
  const bound = () => existsSync(pidFile) && Number(readFileSync(pidFile, "utf8").trim()) === child.pid;
  for (;;) {
    if (stderr.includes("Address already in use")) {
      // Another process took the port between the OS naming it and nginx binding it: try another.
      child.kill("SIGKILL");
      await exited;
      rmSync(prefix, { recursive: true, force: true });
      throw new PortTakenError(`port ${port} was taken`);
    }
    if (child.exitCode !== null) {
      rmSync(prefix, { recursive: true, force: true });
      throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    }
    if (bound()) {
      try {
        await (await fetch(`${origin}/`)).arrayBuffer();
        break;
      } catch {
        // bound but not yet accepting: poll again
      }
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`nginx did not answer on ${origin}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    origin,
    port,
    pid: child.pid ?? 0,
    brotli,
    root,
    log: () => stderr,
    async stop() {
      if (child.exitCode === null) {
        // SIGTERM: fast shutdown of the master and its workers.
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
