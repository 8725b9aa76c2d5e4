/**
 * A stand-in for the firm's git host, for the studio's demo and tests: a bare repository served over
 * HTTP by Debian git's own `git http-backend` (the smart protocol, as GitHub or GitLab speak it),
 * behind a small CGI bridge with Basic authentication, and a `pre-receive` hook standing in for branch
 * protection: `main` changes only by the studio's account, and an administrator can hold it (a file
 * `hold-main` in the repository, whose text the hook prints). Loopback only.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { listenAgain, listenOnLoopback } from "../../lib/ports.ts";

export const STUDIO_ACCOUNT = "studio-bot";
const REPOSITORY = "site.git";

const HOOK = `#!/bin/sh
# Branch protection: main changes only by the content studio's account, unless an administrator holds it.
while read old new ref; do
  [ "$ref" = "refs/heads/main" ] || continue
  if [ -f "$GIT_DIR/hold-main" ]; then echo "main is protected: $(cat "$GIT_DIR/hold-main")"; exit 1; fi
  if [ "$REMOTE_USER" != "${STUDIO_ACCOUNT}" ]; then echo "main is protected: only the content studio may change it"; exit 1; fi
done
exit 0
`;

export interface GitHost {
  /** The bare repository on disk. */
  bare: string;
  /** The URL an account pushes and fetches with (credentials included). */
  urlFor(account: string): string;
  /** Holds main (the hook refuses every push to it, printing `reason`), or releases it. */
  holdMain(reason: string | null): void;
  /** Stops answering (nothing listens at its address: connections are refused) until `restore()`. */
  outage(): Promise<void>;
  /** Listens again at the same address. */
  restore(): Promise<void>;
  stop(): Promise<void>;
}

/** One CGI call to `git http-backend`, its answer written back as HTTP. */
function cgi(root: string, user: string, req: IncomingMessage, res: ServerResponse, url: URL, running: Set<ChildProcess>) {
  const child = spawn("git", ["http-backend"], {
    // Its own process group, so that stopping the host stops it and its hooks (see `stop`).
    detached: true,
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      REMOTE_USER: user,
      REMOTE_ADDR: "127.0.0.1",
      REQUEST_METHOD: req.method,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
      ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    started = true;
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const [name, ...value] = line.split(":");
      if (name!.toLowerCase() === "status") status = Number.parseInt(value.join(":").trim(), 10);
      else headers[name!] = value.join(":").trim();
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  child.on("close", () => (started ? res.end() : res.writeHead(502).end("git http-backend gave no answer\n")));
}

/** Serves a bare clone of `source`'s `main` with the hook, accounts `studio-bot` and `developer`. */
export async function startGitHost(source: string, folder: string): Promise<GitHost> {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const bare = join(folder, REPOSITORY);
  execFileSync("git", ["clone", "--quiet", "--bare", "--single-branch", "--branch", "main", source, bare]);
  execFileSync("git", ["config", "http.receivepack", "true"], { cwd: bare });
  writeFileSync(join(bare, "hooks", "pre-receive"), HOOK);
  chmodSync(join(bare, "hooks", "pre-receive"), 0o755);
  const tokens = new Map([STUDIO_ACCOUNT, "developer"].map((account) => [account, randomBytes(18).toString("base64url")]));

  const server = createServer((req, res) => {
    const [scheme, encoded] = (req.headers.authorization ?? "").split(" ");
    const [user = "", token] = scheme === "Basic" && encoded ? Buffer.from(encoded, "base64").toString().split(":") : [];
    if (!token || tokens.get(user) !== token) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="firm git host"' }).end("Sign in to the git host.\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!url.pathname.startsWith(`/${REPOSITORY}/`)) return void res.writeHead(404).end("No such repository.\n");
    cgi(folder, user, req, res, url, running);
  });
  const running = new Set<ChildProcess>();
  const port = await listenOnLoopback(server);
  const close = async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  };
  return {
    bare,
    urlFor: (account) => `http://${account}:${tokens.get(account)}@127.0.0.1:${port}/${REPOSITORY}`,
    holdMain(reason) {
      const file = join(bare, "hold-main");
      if (reason === null) return void (existsSync(file) && rmSync(file));
      writeFileSync(file, `${reason}\n`);
    },
    outage: () => (server.listening ? close() : Promise.resolve()),
    restore: () => (server.listening ? Promise.resolve() : listenAgain(server, port)),
    // A push still under way (a test's hook holding it) ends with the host: left behind, its git processes
    // would hold the test runner's stderr open, and the run would never end.
    stop: async () => {
      for (const child of running) {
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
      if (server.listening) await close();
    },
  };
}
