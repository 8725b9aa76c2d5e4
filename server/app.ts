import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import sirv from "sirv";
import { cacheControlFor, parseHeadersFile } from "../src/lib/security-headers.ts";

export interface AppOptions {
  /** The built site (dist/). */
  root: string;
  /** Replaces the static file step (tests use it to force a failure). */
  serveStatic?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}

export const ALLOWED_METHODS = "GET, HEAD";

/** Decides, before any file is touched, what a request path may be; null means the request is malformed. */
export function classifyPath(
  rawUrl: string,
): { kind: "bad" } | { kind: "hidden" } | { kind: "slash"; location: string } | { kind: "file"; pathname: string } {
  const rawPath = rawUrl.split("?")[0] ?? "";
  if (!rawPath.startsWith("/") || rawPath.startsWith("//") || rawPath.includes("\\")) return { kind: "bad" };
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return { kind: "bad" };
  }
  if (pathname.includes("\0") || pathname.includes("\\") || /%[0-9a-f]{2}/i.test(pathname)) return { kind: "bad" };
  const segments = pathname.split("/");
  if (segments.some((s) => s === ".." || s === ".")) return { kind: "bad" };
  // Dotfiles, the headers file and source maps are build internals, never served.
  if (segments.some((s) => s.startsWith(".")) || pathname === "/_headers" || pathname.endsWith(".map")) return { kind: "hidden" };
  if (/\.(br|gz)$/.test(pathname)) return { kind: "hidden" };
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return { kind: "slash", location: pathname.replace(/\/+$/, "") || "/" };
  }
  return { kind: "file", pathname };
}

const ERROR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>The server could not complete this request. Please try again later.</p></body></html>`;

/**
 * This server speaks plain HTTP (TLS is the CDN's or nginx's job), so it leaves out what only means
 * something over TLS: HSTS, and upgrade-insecure-requests (which would send the browser to an https
 * origin that does not exist here).
 */
export function forPlainHttp(headers: Record<string, string>): Record<string, string> {
  const { ["Strict-Transport-Security"]: _hsts, ...rest } = headers;
  const csp = rest["Content-Security-Policy"];
  if (csp)
    rest["Content-Security-Policy"] = csp
      .split(/;\s*/)
      .filter((d) => d !== "upgrade-insecure-requests")
      .join("; ");
  return rest;
}

export function createApp({ root, serveStatic }: AppOptions) {
  const headersFile = join(root, "_headers");
  if (!existsSync(headersFile)) throw new Error(`${headersFile} is missing: run "npm run build" first`);
  const security = forPlainHttp(parseHeadersFile(readFileSync(headersFile, "utf8")));
  const notFoundPage = join(root, "404.html");
  const notFound = {
    plain: readFileSync(notFoundPage),
    br: existsSync(`${notFoundPage}.br`) ? readFileSync(`${notFoundPage}.br`) : null,
    gzip: existsSync(`${notFoundPage}.gz`) ? readFileSync(`${notFoundPage}.gz`) : null,
  };

  const sendNotFound = (req: IncomingMessage, res: ServerResponse) => {
    const accepts = String(req.headers["accept-encoding"] ?? "");
    const [body, encoding] =
      notFound.br && /\bbr\b/.test(accepts)
        ? [notFound.br, "br"]
        : notFound.gzip && /\bgzip\b/.test(accepts)
          ? [notFound.gzip, "gzip"]
          : [notFound.plain, null];
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("Vary", "Accept-Encoding");
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  };

  const staticFiles =
    serveStatic ??
    sirv(root, {
      dev: false,
      etag: true,
      brotli: true,
      gzip: true,
      extensions: ["html"],
      dotfiles: false,
      setHeaders: (res, pathname) => res.setHeader("Cache-Control", cacheControlFor(pathname)),
    });

  return function handle(req: IncomingMessage, res: ServerResponse) {
    try {
      for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
      const method = req.method ?? "";
      if (method !== "GET" && method !== "HEAD") {
        res.statusCode = 405;
        res.setHeader("Allow", ALLOWED_METHODS);
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("Method Not Allowed\n");
        return;
      }
      const decision = classifyPath(req.url ?? "");
      if (decision.kind === "bad") {
        res.statusCode = 400;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("Bad Request\n");
        return;
      }
      if (decision.kind === "hidden") return sendNotFound(req, res);
      if (decision.kind === "slash") {
        res.statusCode = 301;
        // A path, never a URL: the redirect cannot leave this origin.
        res.setHeader("Location", decision.location);
        res.end();
        return;
      }
      res.setHeader("Cache-Control", cacheControlFor(decision.pathname));
      staticFiles(req, res, () => sendNotFound(req, res));
    } catch (error) {
      console.error("server error:", error instanceof Error ? error.message : error);
      if (res.headersSent) return void res.destroy();
      res.statusCode = 500;
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Cache-Control", "no-store");
      res.removeHeader("Content-Encoding");
      res.end(req.method === "HEAD" ? undefined : ERROR_PAGE);
    }
  };
}
