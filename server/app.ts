import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import sirv from "sirv";
import { HOST_FILES, isBuildInternal } from "../src/shared/publish.ts";
import { cacheControlFor, parseHeadersFile } from "../src/shared/security-headers.ts";
import { indexFiles, type Variant } from "./files.ts";

export interface AppOptions {
  /** The built site (dist/). */
  root: string;
  /** Replaces the static file step (tests use it to force a failure). */
  serveStatic?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  /** Files up to this size are served from memory (default 1 MiB); larger ones are streamed by sirv. 0: all by sirv. */
  memoryMaxBytes?: number;
}

const ALLOWED_METHODS = "GET, HEAD";
/** Longest request target we accept; longer ones get 414 (the request line as a whole may reach maxHeaderSize). */
export const MAX_URL_LENGTH = 8 * 1024;
/** Request line plus headers; beyond it Node's parser stops reading and we answer 431 (or 414). */
export const MAX_HEADER_SIZE = 16 * 1024;

type Decision = { kind: "bad" } | { kind: "hidden" } | { kind: "slash"; location: string } | { kind: "file"; pathname: string };

/** Decides, before any file is touched, what a request path may be. */
function classifyPath(rawUrl: string): Decision {
  const rawPath = rawUrl.split("?")[0] ?? "";
  // Origin-form only: absolute-form, "*", "//host" and backslashes (which browsers read as "/") are refused.
  if (!rawPath.startsWith("/") || rawPath.startsWith("//") || rawPath.includes("\\")) return { kind: "bad" };
  // Printable ASCII only; anything else arrives here only from a client that skipped percent-encoding.
  if (!/^[\x21-\x7e]*$/.test(rawPath)) return { kind: "bad" };
  // An encoded slash or backslash would let one path segment pose as two after decoding.
  if (/%(2f|5c)/i.test(rawPath)) return { kind: "bad" };
  let pathname: string;
  try {
    // Throws on truncated escapes and on bytes that are not UTF-8.
    pathname = decodeURIComponent(rawPath);
  } catch {
    return { kind: "bad" };
  }
  // A "%" left after one decoding means double encoding, a classic way around traversal filters.
  // Control characters (NUL included) never belong in a path.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  if (/[\x00-\x1f\x7f]/.test(pathname) || /%[0-9a-f]{2}/i.test(pathname)) return { kind: "bad" };
  // "//" would make the trailing-slash redirect a scheme-relative URL to another host.
  if (pathname.includes("//")) return { kind: "bad" };
  const segments = pathname.split("/");
  if (segments.some((s) => s === ".." || s === ".")) return { kind: "bad" };
  // Dotfiles, source maps, the precompressed copies and the hosts' files are build internals, never served by URL.
  if (isBuildInternal(pathname) || HOST_FILES.some((name) => pathname === `/${name}`)) return { kind: "hidden" };
  // The not-found page answers with status 404 even when asked for by name (no soft 404).
  if (pathname === "/404" || pathname === "/404.html") return { kind: "hidden" };
  if (pathname.length > 1 && pathname.endsWith("/")) return { kind: "slash", location: pathname.slice(0, -1) };
  return { kind: "file", pathname };
}

/** One byte range of `size` bytes, "unsatisfiable", or null when the header must be ignored (malformed, several ranges). */
export function parseRange(header: string, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  if (start >= size) return "unsatisfiable";
  if (end < start) return null;
  return { start, end: Math.min(end, size - 1) };
}

/** Weak comparison (RFC 9110 §8.8.3.2) against a list of entity tags, or "*". */
function etagMatches(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
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

/** The security headers this server sends on every answer, read from the build's dist/_headers. */
export function loadSecurityHeaders(root: string): Record<string, string> {
  const headersFile = join(root, "_headers");
  if (!existsSync(headersFile)) throw new Error(`${headersFile} is missing: run "npm run build" first`);
  return forPlainHttp(parseHeadersFile(readFileSync(headersFile, "utf8")));
}

export function createApp({ root, serveStatic, memoryMaxBytes = 1024 * 1024 }: AppOptions) {
  const security = loadSecurityHeaders(root);
  // An injected static step must see every request, so nothing is answered from memory then.
  const files = indexFiles(root, serveStatic ? 0 : memoryMaxBytes);
  const notFoundPage = join(root, "404.html");
  const notFound = {
    plain: readFileSync(notFoundPage),
    br: existsSync(`${notFoundPage}.br`) ? readFileSync(`${notFoundPage}.br`) : null,
    gzip: existsSync(`${notFoundPage}.gz`) ? readFileSync(`${notFoundPage}.gz`) : null,
  };

  const plain = (res: ServerResponse, status: number, extra: Record<string, string> = {}) => {
    res.statusCode = status;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
    // A fixed text: nothing from the request is ever echoed.
    res.end(`${STATUS_CODES[status]}\n`);
  };

  const sendNotFound = (req: IncomingMessage, res: ServerResponse) => {
    const accepts = String(req.headers["accept-encoding"] ?? "");
    const [body, encoding] =
      notFound.br && /\bbr\b/.test(accepts)
        ? [notFound.br, "br"]
        : notFound.gzip && /\bgzip\b/.test(accepts)
          ? [notFound.gzip, "gzip"]
          : [notFound.plain, null];
    for (const name of ["ETag", "Last-Modified", "Content-Range", "Accept-Ranges"]) res.removeHeader(name);
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

  /** 304 and 206/416 are answered here (sirv's 304 drops ETag and Vary; its Range reads the compressed file). */
  const answerConditionalOrRange = (req: IncomingMessage, res: ServerResponse, file: Variant): boolean => {
    const ifNoneMatch = req.headers["if-none-match"];
    const ifModifiedSince = req.headers["if-modified-since"];
    const notModified = ifNoneMatch
      ? etagMatches(ifNoneMatch, file.etag)
      : ifModifiedSince !== undefined && Math.floor(file.mtime.getTime() / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
    if (notModified) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    const range = req.headers.range;
    // If-Range is not worth honouring for weak validators: a full answer is always correct.
    if (req.method !== "GET" || range === undefined || req.headers["if-range"] !== undefined) return false;
    const wanted = parseRange(range, file.size);
    if (wanted === null) return false;
    if (wanted === "unsatisfiable") {
      res.statusCode = 416;
      res.setHeader("Content-Range", `bytes */${file.size}`);
      res.removeHeader("ETag");
      res.removeHeader("Last-Modified");
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(`${STATUS_CODES[416]}\n`);
      return true;
    }
    res.statusCode = 206;
    res.setHeader("Content-Type", contentType(file.abs));
    res.setHeader("Content-Range", `bytes ${wanted.start}-${wanted.end}/${file.size}`);
    res.setHeader("Content-Length", wanted.end - wanted.start + 1);
    res.setHeader("Accept-Ranges", "bytes");
    if (file.body) {
      res.end(file.body.subarray(wanted.start, wanted.end + 1));
      return true;
    }
    const stream = createReadStream(file.abs, { start: wanted.start, end: wanted.end });
    stream.on("error", () => res.destroy());
    stream.pipe(res);
    return true;
  };

  return function handle(req: IncomingMessage, res: ServerResponse) {
    try {
      for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
      if (req.httpVersionMajor !== 1) return plain(res, 505);
      const method = req.method ?? "";
      if (method !== "GET" && method !== "HEAD") return plain(res, 405, { Allow: ALLOWED_METHODS });
      // HTTP/1.1 requires exactly one Host (RFC 9112 §3.2); Node's own check would answer without our headers.
      const hosts = req.rawHeaders.filter((_, i) => i % 2 === 0 && _.toLowerCase() === "host").length;
      if ((req.httpVersionMinor >= 1 && hosts === 0) || hosts > 1) return plain(res, 400);
      const url = req.url ?? "";
      if (url.length > MAX_URL_LENGTH) return plain(res, 414);
      const decision = classifyPath(url);
      if (decision.kind === "bad") return plain(res, 400);
      if (decision.kind === "hidden") return sendNotFound(req, res);
      if (decision.kind === "slash") {
        res.statusCode = 301;
        // A path, never a URL (and never starting with "//"): the redirect cannot leave this origin.
        res.setHeader("Location", decision.location);
        res.setHeader("Cache-Control", "no-cache");
        res.end();
        return;
      }
      res.setHeader("Cache-Control", cacheControlFor(decision.pathname));
      // A range of the identity bytes: a byte range of a brotli stream is of no use to anyone.
      const ranged = method === "GET" && req.headers.range !== undefined;
      const file = files.resolve(decision.pathname, ranged ? "" : String(req.headers["accept-encoding"] ?? ""));
      if (!file) return sendNotFound(req, res);
      // The index is built at startup; a file removed since (a rebuild) must not crash a disk stream.
      if (!file.body && !stillThere(file)) return sendNotFound(req, res);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("ETag", file.etag);
      res.setHeader("Last-Modified", file.mtime.toUTCString());
      if (answerConditionalOrRange(req, res, file)) return;
      if (file.body) {
        res.statusCode = 200;
        res.setHeader("Content-Type", contentType(file.abs.replace(/\.(br|gz)$/, "")));
        if (file.encoding) res.setHeader("Content-Encoding", file.encoding);
        res.setHeader("Content-Length", file.body.length);
        res.end(method === "HEAD" ? undefined : file.body);
        return;
      }
      // Any Range left here is malformed or multi-part: ignored, so sirv sends the whole file.
      delete req.headers.range;
      staticFiles(req, res, () => sendNotFound(req, res));
    } catch (error) {
      console.error("server error:", error instanceof Error ? error.message : error);
      if (res.headersSent) return void res.destroy();
      for (const name of ["ETag", "Last-Modified", "Content-Encoding", "Content-Range", "Accept-Ranges", "Vary"]) res.removeHeader(name);
      res.statusCode = 500;
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Cache-Control", "no-store");
      res.end(req.method === "HEAD" ? undefined : ERROR_PAGE);
    }
  };
}

function stillThere(file: Variant): boolean {
  try {
    const stats = statSync(file.abs);
    return stats.size === file.size && stats.mtimeMs === file.mtimeMs;
  } catch {
    return false;
  }
}

const TYPES: Record<string, string> = {
  html: "text/html;charset=utf-8",
  js: "text/javascript",
  css: "text/css",
  svg: "image/svg+xml",
  xml: "text/xml",
  txt: "text/plain",
  json: "application/json",
  webmanifest: "application/manifest+json",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  avif: "image/avif",
  woff2: "font/woff2",
  ico: "image/x-icon",
};
const contentType = (abs: string) => TYPES[abs.slice(abs.lastIndexOf(".") + 1)] ?? "application/octet-stream";

/** A raw HTTP/1.1 answer for requests Node's parser refused before any handler could run. */
function rawAnswer(status: number, security: Record<string, string>, extra: Record<string, string> = {}): string {
  const body = `${STATUS_CODES[status]}\n`;
  const headers = {
    ...security,
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
    ...extra,
  };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\n\r\n${body}`;
}

/** Which status a parser error deserves. Exported for tests. */
export function statusForParserError(
  code: string | undefined,
  rawPacket: Buffer | undefined,
): { status: number; extra?: Record<string, string> } {
  const head = rawPacket ? rawPacket.subarray(0, MAX_HEADER_SIZE + 1024).toString("latin1") : "";
  switch (code) {
    case "HPE_HEADER_OVERFLOW": {
      // Node stops at MAX_HEADER_SIZE for request line and headers together; tell the two apart by where
      // the first line ends (no end in sight means the request line itself is the long part).
      const lineEnd = head.indexOf("\r\n");
      const startsRequest = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(head);
      const longLine = startsRequest ? lineEnd === -1 || lineEnd > MAX_URL_LENGTH : lineEnd === -1 && !head.includes(":");
      return { status: longLine ? 414 : 431 };
    }
    case "HPE_INVALID_METHOD": {
      // A well-formed method token we do not know is a method we do not allow; anything else is garbage.
      return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.[01]\r?\n/.test(head)
        ? { status: 405, extra: { Allow: ALLOWED_METHODS } }
        : { status: 400 };
    }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408 };
    default:
      return { status: 400 };
  }
}

export interface SiteServerOptions extends AppOptions {
  /** Time allowed for a client to send all its headers (slow-header attacks). */
  headersTimeout?: number;
  /** Time allowed for a whole request. */
  requestTimeout?: number;
  keepAliveTimeout?: number;
}

/** The HTTP server of `npm start` (and of the tests): limits, parser-error answers with the same headers, CONNECT refused. */
export function createSiteServer({
  headersTimeout = 10_000,
  requestTimeout = 30_000,
  keepAliveTimeout = 5_000,
  ...appOptions
}: SiteServerOptions): Server {
  const app = createApp(appOptions);
  const security = loadSecurityHeaders(appOptions.root);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      maxHeaderSize: MAX_HEADER_SIZE,
      // Checked in the handler instead, so the 400 carries the security headers.
      requireHostHeader: false,
      // Node checks the timeouts above only this often; the default (30 s) lets a slow client linger far longer.
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    app,
  );
  server.keepAliveTimeout = keepAliveTimeout;

  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (inFlight?.headersSent) return void socket.destroy();
    const { status, extra } = statusForParserError(error.code, error.rawPacket);
    socket.end(rawAnswer(status, security, extra));
  });

  // Without a listener Node drops CONNECT silently; answer it like any other method we do not allow.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => {
    socket.end(rawAnswer(405, security, { Allow: ALLOWED_METHODS }));
  });

  return server;
}
