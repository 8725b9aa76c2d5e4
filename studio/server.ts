/**
 * The studio's HTTP server, on loopback only: the admin page (Decap CMS's prebuilt bundle from
 * node_modules, nothing from a CDN), its configuration generated from the content schemas, and the
 * git API, passed on to decap-server. Every request must name the studio itself in `Host` and, when
 * present, `Origin`: a web page in the same browser (DNS rebinding, a cross-site form) gets 403.
 */
import { createReadStream, existsSync, readdirSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { stringify } from "yaml";
import { backendFromEnv, studioConfig } from "./config.ts";
import { approvalsPage, approveFromForm, readForm } from "./approvals-view.ts";
import { publishRefusal } from "./publish.ts";
import { entryBranch } from "./git.ts";
import { adminScript } from "./admin-script.ts";
import type { PreviewRequest } from "./preview/index.ts";
import { DOCUMENT_COLLECTIONS, LANDING_FILES } from "../src/content/schemas/files.ts";

/**
 * The admin page's own policy: its own scripts and API only, nothing from another origin. Decap's editor
 * styles its widgets inline, and checks its configuration with ajv, which compiles validators with
 * `new Function` ('unsafe-eval'; the page loads no script but Decap's bundle from node_modules).
 */
export const ADMIN_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "Content-Security-Policy": ADMIN_CSP,
  "X-Content-Type-Options": "nosniff",
  // same-origin, not no-referrer: under no-referrer a form sends "Origin: null", which the studio must refuse.
  "Referrer-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/** Where Decap's prebuilt bundle and its chunks are. */
export const decapDist = () => join(dirname(createRequire(import.meta.url).resolve("decap-cms/package.json")), "dist");

const ADMIN_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Content studio</title>
  </head>
  <body>
    <script src="/admin/decap-cms.js"></script>
    <script src="/admin/studio.js"></script>
  </body>
</html>
`;

export interface StudioServerOptions {
  /** The project and the studio's clone, for the approvals view. */
  root: string;
  repo: string;
  /** The decap-server URL (git mode, on the studio's clone), reached from this process only. */
  decapUrl: string;
  /** Decides on a git API action before it reaches decap-server; a string refuses it with that message. */
  screen?: (action: string, params: Record<string, unknown>) => Promise<string | null>;
  /** Answers an action itself (a value), or leaves it to decap-server (undefined). */
  answer?: (action: string, params: Record<string, unknown>) => Promise<unknown>;
  /** Runs after decap-server answered an action with success. */
  after?: (action: string, params: Record<string, unknown>) => Promise<void>;
  /** Stops what the studio started besides itself (the branches' preview servers) when it closes. */
  onClose?: () => Promise<void>;
}

const MAX_BODY = 50 * 1024 * 1024;
/** Decap names a file's preview template by the file, a folder's by the collection. */
const STUDIO_JS = adminScript([...Object.keys(LANDING_FILES), ...Object.keys(DOCUMENT_COLLECTIONS)]);

function send(res: ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** Whether `Host` (and `Origin`, when sent) name this server: http://127.0.0.1:<port> or http://localhost:<port>. */
export function isOwnRequest(req: IncomingMessage, port: number): boolean {
  const own = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  if (!own.has(req.headers.host ?? "")) return false;
  const origin = req.headers.origin;
  // A browser sends Origin with every request that changes something; one without it is not the studio's page.
  if (origin === undefined) return req.method === "GET" || req.method === "HEAD";
  return [...own].some((host) => origin === `http://${host}`);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Answers the request with a refusal; null, for the caller to return. */
function refuse(res: ServerResponse, status: number, type: string, body: string): null {
  send(res, status, type, body);
  return null;
}

/** A POST's JSON body, or null once the request has been answered with 405, 415, 413 or 400. */
async function postedJson(req: IncomingMessage, res: ServerResponse): Promise<{ raw: Buffer; value: unknown } | null> {
  if (req.method !== "POST") return refuse(res, 405, "text/plain; charset=utf-8", "POST only\n");
  if (!/^application\/json\b/.test(req.headers["content-type"] ?? "")) return refuse(res, 415, "text/plain; charset=utf-8", "JSON only\n");
  const raw = await readBody(req);
  if (!raw) return refuse(res, 413, "text/plain; charset=utf-8", "Too large\n");
  try {
    return { raw, value: JSON.parse(raw.toString("utf8")) as unknown };
  } catch {
    return refuse(res, 400, "application/json", JSON.stringify({ error: "The request is not JSON." }));
  }
}

function forward(decapUrl: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${decapUrl}/api/v1`,
      { method: "POST", headers: { "Content-Type": "application/json", "Content-Length": body.length } },
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
}

export function createStudioServer(options: StudioServerOptions): Server {
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  // The preview pane's stylesheet and renderer, made from the start so they are ready when an entry opens.
  // Loaded on its own (esbuild, Tailwind's compiler), so the studio's start does not wait for them.
  const getPreview = () => import("./preview/index.ts").then(({ sitePreview }) => sitePreview(options.root));
  void getPreview().catch(() => undefined);
  const dist = decapDist();
  const assets = new Set(readdirSync(dist).filter((name) => /^[\w.-]+\.(?:js|css|wasm)$/.test(name)));
  const server = createServer(async (req, res) => {
    const port = (server.address() as { port: number }).port;
    if (!isOwnRequest(req, port))
      return send(res, 403, "text/plain; charset=utf-8", "This studio answers only its own page (Host or Origin refused).\n");
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const path = url.pathname;
    try {
      if (path === "/api/v1") {
        const posted = await postedJson(req, res);
        if (!posted) return;
        const parsed = (posted.value ?? {}) as { action?: unknown; params?: unknown };
        const body = posted.raw;
        const action = typeof parsed.action === "string" ? parsed.action : "";
        const params = (parsed.params && typeof parsed.params === "object" ? parsed.params : {}) as Record<string, unknown>;
        // One git action at a time: decap-server checks branches out per request under a lock that gives
        // up after 3 s, so on a busy machine a second entry's branch could start from the first's.
        // The publish check runs in the same turn, so nothing lands between the check and the merge.
        // Actions the studio answers itself read git without checking anything out, so they need no turn.
        const own = await options.answer?.(action, params);
        if (own !== undefined) return send(res, 200, "application/json", JSON.stringify(own));
        const result = await serially(async () => {
          const refusal = (await options.screen?.(action, params)) ?? null;
          if (refusal) return { status: 422, text: JSON.stringify({ error: refusal }) };
          const answer = await forward(options.decapUrl, body);
          if (answer.status < 300) await options.after?.(action, params);
          return answer;
        });
        return send(res, result.status, "application/json", result.text);
      }
      if (path === "/admin/approvals/approve") {
        if (req.method !== "POST") return send(res, 405, "text/plain; charset=utf-8", "POST only\n");
        const message = await approveFromForm(options.root, options.repo, await readForm(req));
        return send(res, message.ok ? 200 : 422, "text/html; charset=utf-8", await approvalsPage(options.root, options.repo, message));
      }
      if (path === "/admin/preview") {
        const posted = await postedJson(req, res);
        if (!posted) return;
        const request = posted.value as PreviewRequest;
        const made = await getPreview().then(
          (ready) => ready.render(request),
          (error: Error) => ({ problems: [`The preview could not be made: ${error.message}`] }),
        );
        return send(res, 200, "application/json", JSON.stringify(made));
      }
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain; charset=utf-8", "GET only\n");
      if (path === "/admin/approvals") return send(res, 200, "text/html; charset=utf-8", await approvalsPage(options.root, options.repo));
      if (path === "/admin/approvals/check") {
        const branch = entryBranch(url.searchParams.get("collection"), url.searchParams.get("slug"));
        // The git API's own rule (publish.ts), asked before Decap sends the publish.
        return send(res, 200, "application/json", JSON.stringify({ refusal: await publishRefusal(options.root, options.repo, branch) }));
      }
      if (path === "/admin/preview.css") return send(res, 200, "text/css; charset=utf-8", (await getPreview()).css);
      if (path === "/admin/studio.js") return send(res, 200, "text/javascript; charset=utf-8", STUDIO_JS);
      if (path === "/" || path === "/admin") {
        res.writeHead(302, { ...SECURITY_HEADERS, Location: "/admin/" });
        return res.end();
      }
      if (path === "/admin/") return send(res, 200, "text/html; charset=utf-8", ADMIN_HTML);
      if (path === "/admin/config.yml") {
        const config = studioConfig({ localBackendUrl: `http://${req.headers.host}/api/v1`, backend: backendFromEnv(process.env) });
        return send(res, 200, "text/yaml; charset=utf-8", stringify(config));
      }
      const name = path.startsWith("/admin/") ? path.slice("/admin/".length) : "";
      if (assets.has(name) && existsSync(join(dist, name))) {
        const type = name.endsWith(".css") ? "text/css" : name.endsWith(".wasm") ? "application/wasm" : "text/javascript";
        res.writeHead(200, { ...SECURITY_HEADERS, "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "no-cache" });
        return createReadStream(join(dist, name)).pipe(res);
      }
      return send(res, 404, "text/plain; charset=utf-8", "Not found\n");
    } catch (error) {
      return send(res, 502, "application/json", JSON.stringify({ error: `The studio could not do that: ${(error as Error).message}` }));
    }
  });
  server.on("close", () => void options.onClose?.());
  return server;
}
