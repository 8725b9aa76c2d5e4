/**
 * Hostile and odd requests against the real server over the real dist/, sent on raw sockets so no
 * client library normalises the path first. Every case states its status; after every case `GET /`
 * must still answer 200, and no answer may carry a 500, a byte from outside dist/ or a reflected input.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  dist,
  distFile,
  expectedSecurityHeaders,
  projectRoot,
  rawRequest,
  requireBuild,
  startServer,
  type RawResponse,
  type Running,
} from "./support.ts";

requireBuild();
const asset = `/_astro/${readdirSync(join(dist, "_astro")).find((f) => f.endsWith(".js") && readdirSync(join(dist, "_astro")).includes(`${f}.br`))}`;
const indexHtml = distFile("/index.html");
const notFoundHtml = distFile("/404.html");
const indexMtime = statSync(join(dist, "index.html")).mtime;

// A file next to dist/ that traversal would reach; its random content must never appear in an answer.
const canaryName = "serve-canary.txt";
const canaryPath = join(projectRoot, canaryName);
const canary = `CANARY-${randomBytes(12).toString("hex")}`;
// Put in requests where an echo would show: it must never come back.
const MARK = "XSSMARK";

interface Ctx {
  etag: string;
  brEtag: string;
}

const request = (method: string, target: string, headers: Record<string, string> = {}, version = "HTTP/1.1") =>
  `${method} ${target} ${version}\r\n${Object.entries({ Host: "127.0.0.1", Connection: "close", ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\n\r\n`;
const get = (target: string, headers: Record<string, string> = {}) => request("GET", target, headers);

interface Case {
  name: string;
  send: (ctx: Ctx) => string | Buffer;
  status: number;
  check?: (res: RawResponse, ctx: Ctx) => void;
}

const isIndex = (res: RawResponse) => expect(res.body.equals(indexHtml)).toBe(true);
const isNotFoundPage = (res: RawResponse) => {
  expect(res.headers["content-type"]).toMatch(/^text\/html/);
  expect(res.body.equals(notFoundHtml)).toBe(true);
};
const allows = (res: RawResponse) => expect(res.headers.allow).toBe("GET, HEAD");
const noBody = (res: RawResponse) => expect(res.body.length).toBe(0);

const cases: Case[] = [
  // The landing page, byte for byte.
  { name: "GET /", send: () => get("/"), status: 200, check: isIndex },
  // HEAD: the GET's headers and length, no body.
  {
    name: "HEAD /",
    send: () => request("HEAD", "/"),
    status: 200,
    check: (r) => (noBody(r), expect(r.headers["content-length"]).toBe(String(indexHtml.length))),
  },
  // A legal page by its extensionless route.
  {
    name: "GET /terms-of-service",
    send: () => get("/terms-of-service"),
    status: 200,
    check: (r) => expect(r.body.equals(distFile("/terms-of-service.html"))).toBe(true),
  },
  // Unknown path: the 404 page with status 404 (security headers are checked on every case).
  { name: "unknown path", send: () => get(`/no-such-page-${MARK}`), status: 404, check: isNotFoundPage },
  // Raw ../ out of dist/ to the canary.
  { name: "raw ../ traversal", send: () => get(`/../${canaryName}`), status: 400 },
  // ../ after a real directory.
  { name: "raw ../ inside a path", send: () => get(`/_astro/../../${canaryName}`), status: 400 },
  // The classic /etc/passwd climb.
  { name: "deep raw traversal", send: () => get("/../../../../../../etc/passwd"), status: 400 },
  // Percent-encoded dots.
  { name: "percent-encoded ../", send: () => get(`/%2e%2e/${canaryName}`), status: 400 },
  // Encoded dots and slash in one segment.
  { name: "fully encoded ../", send: () => get(`/%2E%2E%2F${canaryName}`), status: 400 },
  // Double-encoded dots (%252e decodes to %2e).
  { name: "double-encoded ../", send: () => get(`/%252e%252e/${canaryName}`), status: 400 },
  // Double-encoded slash.
  { name: "double-encoded slash", send: () => get(`/..%252f${canaryName}`), status: 400 },
  // Encoded slash.
  { name: "encoded slash", send: () => get(`/..%2f${canaryName}`), status: 400 },
  // Encoded backslash (Windows-style separator).
  { name: "encoded backslash", send: () => get(`/..%5c${canaryName}`), status: 400 },
  // Raw backslash.
  { name: "raw backslash traversal", send: () => get(`/..\\${canaryName}`), status: 400 },
  // Overlong UTF-8 dots (%c0%ae), a decoder bypass of old.
  { name: "overlong UTF-8 dots", send: () => get(`/%c0%ae%c0%ae/${canaryName}`), status: 400 },
  // Truncated escape at the end.
  { name: "truncated escape %", send: () => get("/%"), status: 400 },
  // Escape with one hex digit.
  { name: "truncated escape %4", send: () => get("/index%4"), status: 400 },
  // Escape with non-hex digits.
  { name: "malformed escape %zz", send: () => get("/%zz"), status: 400 },
  // Invalid UTF-8 sequence (a lead byte followed by a non-continuation byte).
  { name: "invalid UTF-8 %C3%28", send: () => get("/%C3%28"), status: 400 },
  // A byte that can never start UTF-8.
  { name: "invalid UTF-8 %FF", send: () => get("/%FF"), status: 400 },
  // Raw non-ASCII bytes in the request line. Node's HTTP parser refuses it, not our code (ours only adds the policy headers to the 400).
  {
    name: "raw bytes in the path",
    send: () =>
      Buffer.concat([
        Buffer.from("GET /"),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
      ]),
    status: 400,
  },
  // Valid percent-encoded UTF-8 (a non-ASCII path as browsers send it) is an ordinary unknown page.
  { name: "valid UTF-8 path /%C3%BCberblick", send: () => get("/%C3%BCberblick"), status: 404, check: isNotFoundPage },
  // NUL alone.
  { name: "%00", send: () => get("/%00"), status: 400 },
  // NUL to cut off an extension check.
  { name: "%00 extension truncation", send: () => get("/index.html%00.txt"), status: 400 },
  // Request target over 8 KiB but within the parser's limit: our own check.
  { name: "9 KiB request line", send: () => get(`/${"a".repeat(9 * 1024)}`), status: 414 },
  // Request target beyond the parser's limit.
  { name: "20 KiB request line", send: () => get(`/${"a".repeat(20 * 1024)}`), status: 414 },
  // One huge header.
  { name: "20 KiB header", send: () => get("/", { "X-Big": "a".repeat(20 * 1024) }), status: 431 },
  // Many headers together over the limit.
  {
    name: "many headers",
    send: () => get("/", Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`X-H${i}`, "b".repeat(60)]))),
    status: 431,
  },
  // A form post to a static site.
  {
    name: "POST",
    send: () => request("POST", "/", { "Content-Type": "text/plain", "Content-Length": "7" }) + MARK,
    status: 405,
    check: allows,
  },
  { name: "PUT", send: () => request("PUT", `/${MARK}.html`, { "Content-Length": "0" }), status: 405, check: allows },
  { name: "DELETE", send: () => request("DELETE", "/index.html"), status: 405, check: allows },
  { name: "PATCH", send: () => request("PATCH", "/", { "Content-Length": "0" }), status: 405, check: allows },
  // TRACE would echo the request (cross-site tracing); the X-Mark header must not come back.
  { name: "TRACE", send: () => request("TRACE", "/", { "X-Mark": MARK }), status: 405, check: allows },
  { name: "OPTIONS /", send: () => request("OPTIONS", "/"), status: 405, check: allows },
  { name: "OPTIONS *", send: () => request("OPTIONS", "*"), status: 405, check: allows },
  // A method the parser knows but we do not serve.
  { name: "PROPFIND", send: () => request("PROPFIND", "/"), status: 405, check: allows },
  // A method token nobody knows (the parser refuses it; we still say which methods exist).
  { name: "unknown method token", send: () => request("FROBNICATE", "/"), status: 405, check: allows },
  // CONNECT would turn the server into a tunnel.
  { name: "CONNECT", send: () => request("CONNECT", "evil.example:443"), status: 405, check: allows },
  // A directory without its slash: no listing, no redirect.
  { name: "directory without slash", send: () => get("/_astro"), status: 404, check: isNotFoundPage },
  // A directory with its slash: redirected to the slashless path on this origin (then 404), never listed.
  { name: "directory with slash", send: () => get("/_astro/"), status: 301, check: (r) => expect(r.headers.location).toBe("/_astro") },
  // Trailing slash on a page: a relative redirect.
  {
    name: "page with trailing slash",
    send: () => get("/terms-of-service/"),
    status: 301,
    check: (r) => expect(r.headers.location).toBe("/terms-of-service"),
  },
  // Repository internals.
  { name: "/.git/config", send: () => get("/.git/config"), status: 404, check: isNotFoundPage },
  { name: "/.env", send: () => get("/.env"), status: 404, check: isNotFoundPage },
  { name: "/.well-known/security.txt", send: () => get("/.well-known/security.txt"), status: 404 },
  // The not-found page by name is still a 404, never a soft 404 with status 200.
  { name: "/404", send: () => get("/404"), status: 404, check: isNotFoundPage },
  { name: "/404.html", send: () => get("/404.html"), status: 404, check: isNotFoundPage },
  // The headers file is a build internal.
  { name: "/_headers", send: () => get("/_headers"), status: 404, check: isNotFoundPage },
  // Source maps.
  { name: "source map", send: () => get(`${asset}.map`), status: 404, check: isNotFoundPage },
  // The precompressed copies are served by negotiation, not by name.
  { name: "precompressed file by name", send: () => get("/index.html.br"), status: 404, check: isNotFoundPage },
  // Brotli by negotiation, with Vary.
  {
    name: "Accept-Encoding: br",
    send: () => get(asset, { "Accept-Encoding": "br, gzip" }),
    status: 200,
    check: (r) => (
      expect(r.headers["content-encoding"]).toBe("br"),
      expect(r.headers.vary).toBe("Accept-Encoding"),
      expect(r.body.equals(distFile(`${asset}.br`))).toBe(true)
    ),
  },
  // Gzip when brotli is not offered.
  {
    name: "Accept-Encoding: gzip",
    send: () => get("/", { "Accept-Encoding": "gzip" }),
    status: 200,
    check: (r) => (expect(r.headers["content-encoding"]).toBe("gzip"), expect(r.body.equals(distFile("/index.html.gz"))).toBe(true)),
  },
  // A satisfiable range: identity bytes even when brotli is offered.
  {
    name: "Range 0-99",
    send: () => get("/", { Range: "bytes=0-99", "Accept-Encoding": "br" }),
    status: 206,
    check: (r) => {
      expect(r.headers["content-range"]).toBe(`bytes 0-99/${indexHtml.length}`);
      expect(r.headers["content-encoding"]).toBeUndefined();
      expect(r.body.equals(indexHtml.subarray(0, 100))).toBe(true);
    },
  },
  // A suffix range: the last 10 bytes.
  {
    name: "Range suffix -10",
    send: () => get("/", { Range: "bytes=-10" }),
    status: 206,
    check: (r) => expect(r.body.equals(indexHtml.subarray(-10))).toBe(true),
  },
  // A single-byte range.
  {
    name: "Range 0-0",
    send: () => get("/", { Range: "bytes=0-0" }),
    status: 206,
    check: (r) => expect(r.body.equals(indexHtml.subarray(0, 1))).toBe(true),
  },
  // Beyond the end.
  {
    name: "Range beyond the end",
    send: () => get("/", { Range: `bytes=${indexHtml.length}-` }),
    status: 416,
    check: (r) => expect(r.headers["content-range"]).toBe(`bytes */${indexHtml.length}`),
  },
  // Malformed: ignored, whole page.
  { name: "Range malformed", send: () => get("/", { Range: `bytes=${MARK}` }), status: 200, check: isIndex },
  // Several ranges: ignored rather than answered as multipart.
  { name: "Range with two ranges", send: () => get("/", { Range: "bytes=0-1,5-6" }), status: 200, check: isIndex },
  // Reversed range: ignored.
  { name: "Range reversed", send: () => get("/", { Range: "bytes=9-3" }), status: 200, check: isIndex },
  // Revalidation with the current ETag: 304, no body, ETag and caching headers repeated.
  {
    name: "If-None-Match current",
    send: (c) => get("/", { "If-None-Match": c.etag }),
    status: 304,
    check: (r, c) => (
      noBody(r),
      expect(r.headers.etag).toBe(c.etag),
      expect(r.headers["cache-control"]).toBe("no-cache"),
      expect(r.headers.vary).toBe("Accept-Encoding")
    ),
  },
  // The brotli variant has its own ETag.
  {
    name: "If-None-Match current (br)",
    send: (c) => get("/", { "If-None-Match": c.brEtag, "Accept-Encoding": "br" }),
    status: 304,
    check: (r, c) => (noBody(r), expect(r.headers.etag).toBe(c.brEtag)),
  },
  // A list of tags containing the current one.
  { name: "If-None-Match list", send: (c) => get("/", { "If-None-Match": `"old", ${c.etag}` }), status: 304, check: noBody },
  // A stale ETag: full page.
  { name: "If-None-Match stale", send: () => get("/", { "If-None-Match": `W/"1-1"` }), status: 200, check: isIndex },
  // Not modified since a date after the build.
  {
    name: "If-Modified-Since later",
    send: () => get("/", { "If-Modified-Since": new Date(indexMtime.getTime() + 60_000).toUTCString() }),
    status: 304,
    check: noBody,
  },
  // Modified since a date before the build.
  {
    name: "If-Modified-Since earlier",
    send: () => get("/", { "If-Modified-Since": "Mon, 01 Jan 1990 00:00:00 GMT" }),
    status: 200,
    check: isIndex,
  },
  // An unparsable date is ignored.
  { name: "If-Modified-Since garbage", send: () => get("/", { "If-Modified-Since": MARK }), status: 200, check: isIndex },
  // Markup in the query string: the same static bytes, nothing echoed.
  {
    name: "query with markup",
    send: () => get(`/?q=%3Cscript%3E${MARK}%3C/script%3E&x="><svg/onload=${MARK}>`),
    status: 200,
    check: isIndex,
  },
  // HTTP/1.1 requires Host.
  { name: "missing Host on HTTP/1.1", send: () => `GET / HTTP/1.1\r\nConnection: close\r\n\r\n`, status: 400 },
  // Two Hosts are ambiguous (RFC 9112 §3.2).
  {
    name: "two Host headers",
    send: () => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    status: 400,
  },
  // HTTP/1.0 may omit Host.
  { name: "HTTP/1.0 without Host", send: () => `GET / HTTP/1.0\r\n\r\n`, status: 200, check: isIndex },
  // A foreign Host never ends up in a redirect.
  {
    name: "foreign Host and a redirect",
    send: () => get("/terms-of-service/", { Host: "evil.example" }),
    status: 301,
    check: (r) => expect(r.headers.location).toBe("/terms-of-service"),
  },
  // Scheme-relative path: no redirect to evil.example.
  { name: "//evil.example/", send: () => get("//evil.example/"), status: 400 },
  // Backslash variant browsers read as "//".
  { name: "/\\evil.example", send: () => get("/\\evil.example"), status: 400 },
  // Encoded variant that would decode to "///evil.example".
  { name: "/%2F%2Fevil.example/", send: () => get("/%2F%2Fevil.example/"), status: 400 },
  // Encoded backslash variant.
  { name: "/%5Cevil.example/", send: () => get("/%5Cevil.example/"), status: 400 },
  // Absolute-form target (proxy style) naming another host.
  { name: "absolute-form target", send: () => get("http://evil.example/"), status: 400 },
  // Request smuggling: both framings at once. Node's HTTP parser refuses it, not our code (ours only adds the policy headers to the 400).
  {
    name: "Content-Length with Transfer-Encoding",
    send: () => request("GET", "/", { "Content-Length": "4", "Transfer-Encoding": "chunked" }) + "0\r\n\r\n",
    status: 400,
  },
  // Two different lengths. Node's HTTP parser refuses it, not our code (ours only adds the policy headers to the 400).
  {
    name: "conflicting Content-Lengths",
    send: () => request("GET", "/", { "Content-Length": "1" }).replace("\r\n\r\n", "\r\nContent-Length: 2\r\n\r\n") + "ab",
    status: 400,
  },
  // Header folding (obs-fold). Node's HTTP parser refuses it, not our code (ours only adds the policy headers to the 400).
  { name: "obs-fold header", send: () => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n`, status: 400 },
  // Bare LF line endings. Node's HTTP parser refuses it, not our code (ours only adds the policy headers to the 400).
  { name: "LF-only request", send: () => `GET / HTTP/1.1\nHost: 127.0.0.1\n\n`, status: 400 },
  // A TLS ClientHello sent to the plain-HTTP port.
  { name: "TLS handshake bytes", send: () => Buffer.from("16030100a5010000a10303", "hex"), status: 400 },
  // A major version we do not speak.
  { name: "HTTP/2.0 request line", send: () => request("GET", "/", {}, "HTTP/2.0"), status: 505 },
];

let server: Running;
const ctx: Ctx = { etag: "", brEtag: "" };

beforeAll(async () => {
  writeFileSync(canaryPath, canary);
  server = await startServer({ headersTimeout: 1_500, requestTimeout: 5_000 });
  ctx.etag = (await fetch(`${server.origin}/`, { headers: { "Accept-Encoding": "identity" } })).headers.get("etag") ?? "";
  ctx.brEtag = (await fetch(`${server.origin}/`, { headers: { "Accept-Encoding": "br" } })).headers.get("etag") ?? "";
  expect(ctx.etag).not.toBe("");
  expect(ctx.brEtag).not.toBe(ctx.etag);
});

afterAll(async () => {
  rmSync(canaryPath, { force: true });
  await server?.close();
});

describe("hostile and odd requests", () => {
  afterEach(async () => {
    // Whatever the last case did, the site still answers.
    const res = await fetch(`${server.origin}/`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it("has at least 40 cases", () => expect(cases.length).toBeGreaterThanOrEqual(40));

  it.each(cases)("$name → $status", async ({ send, status, check }) => {
    const res = await rawRequest(server.port, send(ctx));
    expect(res.status, res.statusLine).toBe(status);
    const text = res.raw.toString("latin1");
    // Never a byte from outside dist/, never an echo of the request.
    expect(text).not.toContain(canary);
    expect(text).not.toContain("root:x:0:0");
    expect(text).not.toContain(MARK);
    expect(text).not.toContain("evil.example");
    // Every answer, whoever produced it (handler or parser-error path), carries the policy.
    for (const [name, value] of Object.entries(expectedSecurityHeaders())) expect(res.headers[name.toLowerCase()], name).toBe(value);
    expect(res.headers["x-powered-by"]).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    if (res.headers.location !== undefined) expect(res.headers.location).toMatch(/^\/(?![/\\])/);
    check?.(res, ctx);
  });

  it("the canary is really there to be found (the traversal cases are not vacuous)", () => {
    expect(readFileSync(join(dist, "..", canaryName), "utf8")).toBe(canary);
  });
});

describe("slow clients", () => {
  it("cuts off a client trickling headers while others are served", async () => {
    const { connect } = await import("node:net");
    const started = Date.now();
    const slow = connect(server.port, "127.0.0.1");
    const received: Buffer[] = [];
    slow.on("data", (chunk) => received.push(chunk));
    slow.on("error", () => undefined);
    const closed = new Promise<number>((resolve) => slow.on("close", () => resolve(Date.now() - started)));
    slow.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // One header line every 200 ms: each arrives in time, the whole never does.
    let line = 0;
    const trickle = setInterval(() => {
      if (!slow.destroyed) slow.write(`X-Slow-${line++}: 1\r\n`);
    }, 200);
    try {
      // Meanwhile other visitors get their pages.
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${server.origin}/terms-of-service`);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      const elapsed = await closed;
      // headersTimeout is 1.5 s here; Node checks every second at most.
      expect(elapsed).toBeGreaterThanOrEqual(1_400);
      expect(elapsed).toBeLessThan(4_500);
      const answer = Buffer.concat(received).toString("latin1");
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain("X-Frame-Options: DENY");
      expect(line).toBeGreaterThan(3);
    } finally {
      clearInterval(trickle);
      slow.destroy();
    }
  });
});
