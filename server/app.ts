/** The local server. HTTP semantics (Range, 304, HEAD, MIME) are `send`'s; which paths exist (paths.ts) and every header are ours. */
import { existsSync, readFileSync } from "node:fs";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { extname, join } from "node:path";
import { contentType } from "mime-types";
import send from "send";
import { cacheControlFor, parseHeadersFile } from "../src/shared/security-headers.ts";
import { classifyPath, resolveFile, type Resolved } from "./paths.ts";

export interface SiteServerOptions {
  /** The built site (dist/). */
  root: string;
  /** Replaces the file step (tests use it to force a failure). */
  serveStatic?: (req: IncomingMessage, res: ServerResponse, pathname: string) => void;
  /** Time for a client to send all its headers (slow-header attacks), and for a whole request. */
  headersTimeout?: number;
  requestTimeout?: number;
  keepAliveTimeout?: number;
}

const ALLOWED = { Allow: "GET, HEAD" };
/** Longest request target we accept; longer ones get 414 (the request line as a whole may reach maxHeaderSize). */
export const MAX_URL_LENGTH = 8 * 1024;
/** Request line plus headers; beyond it Node's parser stops reading and we answer 431 (or 414). */
export const MAX_HEADER_SIZE = 16 * 1024;
const FILE_HEADERS = ["ETag", "Last-Modified", "Content-Encoding", "Content-Length", "Content-Range", "Accept-Ranges", "Vary"];
const SEND_OPTIONS = { index: false, extensions: false, cacheControl: false } as const;
const PLAIN = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
const ERROR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>The server could not complete this request. Please try again later.</p></body></html>`;

/** Plain HTTP here (TLS is the CDN's or nginx's job): no HSTS, no upgrade-insecure-requests (to an https origin that does not exist). */
export function forPlainHttp({ ["Strict-Transport-Security"]: _hsts, ...rest }: Record<string, string>): Record<string, string> {
  const directives = rest["Content-Security-Policy"]?.split(/;\s*/);
  if (directives) rest["Content-Security-Policy"] = directives.filter((d) => d !== "upgrade-insecure-requests").join("; ");
  return rest;
}

/** The security headers this server sends on every answer, read from the build's dist/_headers. */
export function loadSecurityHeaders(root: string): Record<string, string> {
  const headersFile = join(root, "_headers");
  if (!existsSync(headersFile)) throw new Error(`${headersFile} is missing: run "npm run build" first`);
  return forPlainHttp(parseHeadersFile(readFileSync(headersFile, "utf8")));
}

type OnSendError = (error: Error & { status?: number; headers?: Record<string, string> }) => void;

/** The HTTP server of `npm start` (and of the tests): limits, parser-error answers with the same headers, CONNECT refused. */
export function createSiteServer(options: SiteServerOptions): Server {
  const { root, serveStatic, headersTimeout = 10_000, requestTimeout = 30_000, keepAliveTimeout = 5_000 } = options;
  const security = loadSecurityHeaders(root);
  const answer = (res: ServerResponse, status: number, headers: Record<string, string>, body = "") => {
    for (const name of FILE_HEADERS) res.removeHeader(name);
    res.writeHead(status, { ...headers, "Content-Length": Buffer.byteLength(body) }).end(body);
  };
  // A fixed text: nothing from the request is ever echoed.
  const plain = (res: ServerResponse, status: number, extra = {}) =>
    answer(res, status, { ...PLAIN, ...extra }, `${STATUS_CODES[status]}\n`);
  const fail = (res: ServerResponse, error: unknown) => {
    console.error("server error:", error instanceof Error ? error.message : error);
    if (res.headersSent) return void res.destroy();
    answer(res, 500, { ...PLAIN, "Content-Type": "text/html; charset=utf-8" }, ERROR_PAGE);
  };

  const sendFile = (req: IncomingMessage, res: ServerResponse, file: Resolved, onError: OnSendError, options: send.SendOptions = {}) => {
    // The type of the file the URL names, whichever copy goes out.
    res.setHeader("Content-Type", contentType(extname(file.file)) || "application/octet-stream");
    if (file.encoding) res.setHeader("Content-Encoding", file.encoding);
    res.setHeader("Vary", "Accept-Encoding");
    send(req, file.sent.split("/").map(encodeURIComponent).join("/"), { root, ...SEND_OPTIONS, ...options })
      .on("error", onError)
      .pipe(res);
  };

  const notFound = (req: IncomingMessage, res: ServerResponse) => {
    const page = resolveFile(root, "/404.html", String(req.headers["accept-encoding"] ?? ""));
    if (!page) return fail(res, new Error("404.html is missing"));
    for (const name of FILE_HEADERS) res.removeHeader(name);
    res.statusCode = 404;
    res.setHeader("Cache-Control", "no-cache");
    // The page stands for no URL, so no precondition is judged against it (send would answer 412).
    for (const name of ["if-match", "if-unmodified-since"]) delete req.headers[name];
    sendFile(req, res, page, (error) => fail(res, error), { etag: false, lastModified: false, acceptRanges: false });
  };

  const serveFile = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    // send answers 416 to a malformed or reversed range; RFC 9110 §14.1.1 makes it invalid, not unsatisfiable: ignored.
    const [, first, last] = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range?.trim() ?? "") ?? [];
    if (first === undefined || (first === "" ? last === "" : last !== "" && Number(last) < Number(first))) delete req.headers.range;
    // A request's Cache-Control speaks to caches, but send's `fresh` never answers 304 to no-cache (jshttp/fresh#16).
    delete req.headers["cache-control"];
    // A range of the identity bytes: a byte range of a brotli stream is of no use to anyone.
    const file = resolveFile(root, pathname, req.headers.range ? "" : String(req.headers["accept-encoding"] ?? ""));
    if (!file) return notFound(req, res);
    sendFile(req, res, file, (error) => {
      if (error.status === 404) notFound(req, res);
      else if (error.status === 412 || error.status === 416) plain(res, error.status, error.headers);
      else fail(res, error);
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    try {
      for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
      if (req.httpVersionMajor !== 1) return plain(res, 505);
      if (req.method !== "GET" && req.method !== "HEAD") return plain(res, 405, ALLOWED);
      // HTTP/1.1 requires exactly one Host (RFC 9112 §3.2); Node's own check would answer without our headers.
      const hosts = req.rawHeaders.filter((_, i) => i % 2 === 0 && _.toLowerCase() === "host").length;
      if ((req.httpVersionMinor >= 1 && hosts === 0) || hosts > 1) return plain(res, 400);
      if ((req.url ?? "").length > MAX_URL_LENGTH) return plain(res, 414);
      const decision = classifyPath(req.url ?? "");
      if (decision.kind === "bad") return plain(res, 400);
      if (decision.kind === "hidden") return notFound(req, res);
      // A path, never a URL (and never starting with "//"): the redirect cannot leave this origin.
      if (decision.kind === "slash") return answer(res, 301, { Location: decision.location, "Cache-Control": "no-cache" });
      res.setHeader("Cache-Control", cacheControlFor(decision.pathname));
      (serveStatic ?? serveFile)(req, res, decision.pathname);
    } catch (error) {
      fail(res, error);
    }
  };

  const limits = { headersTimeout, requestTimeout, keepAliveTimeout, maxHeaderSize: MAX_HEADER_SIZE };
  // Host is checked in the handler so its 400 has our headers; at the default check interval (30 s) slow clients linger.
  const checks = { requireHostHeader: false, connectionsCheckingInterval: Math.min(1_000, headersTimeout) };
  const server = createServer({ ...limits, ...checks }, handle);
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    if ((socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent) return void socket.destroy();
    socket.end(rawAnswer(statusForParserError(error.code, error.rawPacket), security));
  });
  // Without a listener Node drops CONNECT silently; answer it like any other method we do not allow.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => socket.end(rawAnswer(405, security)));
  return server;
}

/** A raw HTTP/1.1 answer for requests Node's parser refused before any handler could run. */
function rawAnswer(status: number, security: Record<string, string>): string {
  const body = `${STATUS_CODES[status]}\n`;
  const headers = { ...security, ...PLAIN, ...(status === 405 && ALLOWED), "Content-Length": Buffer.byteLength(body), Connection: "close" };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join("")}\r\n${body}`;
}

/** Which status a parser error deserves. */
export function statusForParserError(code: string | undefined, rawPacket: Buffer | undefined): number {
  const head = rawPacket?.subarray(0, MAX_HEADER_SIZE + 1024).toString("latin1") ?? "";
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  // A well-formed method token we do not know is a method we do not allow; anything else is garbage.
  if (code === "HPE_INVALID_METHOD") return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.[01]\r?\n/.test(head) ? 405 : 400;
  if (code !== "HPE_HEADER_OVERFLOW") return 400;
  // Node's limit covers request line and headers together: a first line with no end in sight is the long part.
  const lineEnd = head.indexOf("\r\n");
  const startsRequest = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(head);
  return (startsRequest ? lineEnd === -1 || lineEnd > MAX_URL_LENGTH : lineEnd === -1 && !head.includes(":")) ? 414 : 431;
}

/**
 * Runs `task` with our server over the build folder `root`, in this process, on a loopback port the OS
 * picks (what the records' capture of a build visits), then stops the server, whatever `task` did.
 */
export async function withSiteServer<T>(root: string, task: (origin: string) => Promise<T>): Promise<T> {
  const server = createSiteServer({ root });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    return await task(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  }
}
