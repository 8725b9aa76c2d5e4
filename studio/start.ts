/**
 * Starts a studio: its clone (loopback: of the project checkout; server: of the firm's remote),
 * decap-server on its private socket, and the HTTP(S) server. Used by `npm run studio`, the demo,
 * the tests and the benchmark alike.
 */
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttps } from "node:https";
import { getRequestListener } from "@hono/node-server";
import { drainable, keepAlive } from "./http/drain.ts";
import { logLine } from "./logging.ts";
import { startDecapBackend, type DecapBackend } from "./decap/backend.ts";
import { git, preflight, prepareClone, STUDIO_COMMITTER } from "./git.ts";
import { prepareServerClone } from "./server-clone.ts";
import type { Settings } from "./settings.ts";
import type { Actor } from "./auth/sessions.ts";
// Before the app is imported: its pages are .tsx, which plain `node` loads only through this hook.
import "../lib/jsx-loader.ts";

export interface RunningStudio {
  url: string;
  repo: string;
  server: Server;
  decap: DecapBackend;
  stop(): Promise<void>;
}

/** The one developer of the loopback studio: the project's own git identity. */
function developer(project: string): Actor {
  const config = (key: string) => {
    try {
      return git(project, "config", key);
    } catch {
      return "";
    }
  };
  return {
    issuer: "local",
    subject: "developer",
    name: config("user.name") || STUDIO_COMMITTER.name,
    email: (config("user.email") || STUDIO_COMMITTER.email).toLowerCase(),
    role: "principal",
    authTime: Date.now(),
    local: true,
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new Error(`Port ${port} is in use: run PORT=<another port> npm run studio`) : error),
    );
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

/**
 * `publicUrlFor`: where browsers reach the studio once its port is known (tests and the demo listen on
 * a port the OS picks); by default STUDIO_PUBLIC_URL (server) or http://127.0.0.1:<port> (loopback).
 */
export async function startStudio(settings: Settings, project: string, publicUrlFor?: (port: number) => URL): Promise<RunningStudio> {
  if (settings.mode === "loopback") preflight(project);
  const repo = settings.mode === "server" ? await prepareServerClone(settings.stateDir, settings.remote) : prepareClone(project);
  const decap = await startDecapBackend(repo);
  // Bound before the studio is made (its address may depend on the port); it answers 503 until then.
  const ready: { handler?: ReturnType<typeof getRequestListener> } = {};
  const requests = drainable((req: IncomingMessage, res: ServerResponse) =>
    ready.handler ? void ready.handler(req, res) : void res.writeHead(503).end("The studio is starting.\n"),
  );
  const listener = requests.listener;
  const tls = settings.mode === "server" ? settings.tls : undefined;
  const server = (tls ? createHttps({ cert: tls.cert, key: tls.key }, listener) : createHttp(listener)) as Server;
  keepAlive(server);
  let port: number;
  try {
    port = await listen(server, settings.port, settings.mode === "server" ? settings.host : "127.0.0.1");
  } catch (error) {
    await decap.stop();
    throw error;
  }
  const publicUrl = publicUrlFor?.(port) ?? (settings.mode === "server" ? settings.publicUrl : new URL(`http://127.0.0.1:${port}`));
  const { createStudio } = await import("./app.ts");
  const studio = await createStudio({
    settings: settings.mode === "server" ? { ...settings, publicUrl } : settings,
    project,
    repo,
    decap,
    publicUrl,
    localActor: settings.mode === "loopback" ? developer(project) : undefined,
  });
  ready.handler = getRequestListener(studio.fetch);
  return {
    url: publicUrl.origin,
    repo,
    server,
    decap,
    async stop() {
      // Requests under way (a publish) finish first; then the builds and decap-server stop, together: a
      // service manager's SIGTERM reaches decap-server too, which must not be started again meanwhile.
      const cut = await requests.drain(server);
      if (cut) logLine("stopped with requests under way", { requests: cut });
      await Promise.all([studio.close(), decap.stop()]);
    },
  };
}
