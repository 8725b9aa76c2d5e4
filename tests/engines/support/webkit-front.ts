/**
 * A test-only front between WebKit and the site, on one loopback port. WebDriver classic has neither
 * request interception nor a way to collect page errors, so this front does both jobs:
 *
 * - As the site's origin, it forwards every request to the project's own server unchanged, except that
 *   each HTML document gets one first `<script src>` that records uncaught errors. The script is served
 *   from the site's own origin, so the site's real CSP header passes through byte for byte
 *   (`script-src 'self'` allows it); nothing is added to the policy. While `holdTimers` is set, one
 *   more comes before it, served the same way, which holds the page's timers (held-timers.ts).
 *   Bundles under `/_astro/` are answered `no-store`, so that blocking them (`blockBundles`) blocks
 *   them in WebKit's cache too.
 * - As the browser's HTTP proxy (http_proxy/https_proxy), it answers CONNECT to the form provider's
 *   host with TLS from a throw-away self-signed certificate (the session accepts it through
 *   `acceptInsecureCerts`) and serves the local fixtures. Every other request for another host is
 *   refused and recorded: nothing leaves the machine.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { generate } from "selfsigned";
import { FORM_ORIGINS, formProviderAnswer } from "./local.ts";
import { HELD_TIMERS_SCRIPT } from "./held-timers.ts";
import { listenOnLoopback } from "../../../lib/ports.ts";

export const ERROR_RECORDER_PATH = "/__engine-tests/error-recorder.js";
/** Served first, before the error recorder, in a document loaded with `holdTimers` (held-timers.ts). */
export const HELD_TIMERS_PATH = "/__engine-tests/held-timers.js";
/** A host that never resolves (RFC 2606): a request for it proves the browser goes through the front. */
export const PROXY_PROBE_HOST = "proxy-probe.invalid";

/** Runs first in every document: keeps uncaught errors and unhandled rejections in window.__engineErrors. */
const ERROR_RECORDER = `(() => {
  const errors = (window.__engineErrors = []);
  // WebKit's Error#stack holds only the frames, so the message goes first.
  const describe = (value) => String(value) + (value && value.stack ? "\\n" + value.stack : "");
  addEventListener("error", (event) => {
    // Failed resource loads also fire "error" (as plain Events); only script errors are ErrorEvents.
    if (event instanceof ErrorEvent) errors.push("error: " + (event.error ? describe(event.error) : event.message));
  }, true);
  addEventListener("unhandledrejection", (event) => errors.push("unhandledrejection: " + describe(event.reason)));
})();
`;

export interface Front {
  origin: string;
  /** The proxy address for http_proxy/https_proxy. */
  proxyUrl: string;
  refused: string[];
  provider: string[];
  /** While true, the site's /_astro/ bundles answer 404: a proxy that blocks scripts. */
  blockBundles: boolean;
  /** While true, each HTML document starts with the held-timers script (held-timers.ts). */
  holdTimers: boolean;
  /** CONNECTs for PROXY_PROBE_HOST (refused, and counted here only). */
  probes: string[];
  close(): Promise<void>;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === "br") return brotliDecompressSync(body);
  if (encoding === "gzip") return gunzipSync(body);
  if (encoding === "deflate") return inflateSync(body);
  return body;
}

function withRecorder(html: string, holdTimers: boolean): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) throw new Error("an HTML document without <head>: nowhere to put the error recorder");
  const at = head.index + head[0].length;
  const held = holdTimers ? `<script src="${HELD_TIMERS_PATH}"></script>` : "";
  return `${html.slice(0, at)}${held}<script src="${ERROR_RECORDER_PATH}"></script>${html.slice(at)}`;
}

export async function startFront({ upstreamPort }: { upstreamPort: number }): Promise<Front> {
  const refused: string[] = [];
  const provider: string[] = [];
  const probes: string[] = [];
  const blocked = { bundles: false, holdTimers: false };
  const tunnels = new Set<Socket>();
  // CONNECT names host:port; an https origin without a port is on 443.
  const providerTargets = new Set([...FORM_ORIGINS].map((origin) => `${new URL(origin).hostname}:${new URL(origin).port || 443}`));
  const { private: key, cert } = await generate([{ name: "commonName", value: "engine-tests.invalid" }], {
    keySize: 2048,
    extensions: [
      { name: "subjectAltName", altNames: [...FORM_ORIGINS].map((origin) => ({ type: 2 as const, value: new URL(origin).hostname })) },
    ],
  });

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const holdTimers = blocked.holdTimers;
    const headers = { ...req.headers };
    // A document with held timers is never revalidated from, nor kept in, WebKit's cache: a 304 would
    // reuse a copy without the script, and a kept copy would hold a later test's timers.
    if (holdTimers) for (const name of ["if-none-match", "if-modified-since"]) delete headers[name];
    const upstream = request({ host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers }, (answer) => {
      const type = String(answer.headers["content-type"] ?? "");
      if (req.url?.startsWith("/_astro/")) {
        // The bundles are cached as immutable, and WebDriver classic cannot empty WebKit's cache: kept,
        // a bundle loaded by an earlier test would run without a request, and blocking it would block
        // nothing. Only their caching changes; the site's own caching is tested against its server.
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "cache-control": "no-store" });
        answer.pipe(res);
        return;
      }
      if (!type.startsWith("text/html") || req.method === "HEAD" || answer.statusCode === 304) {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const html = withRecorder(decode(Buffer.concat(chunks), answer.headers["content-encoding"]).toString("utf8"), holdTimers);
        const headers = { ...answer.headers };
        delete headers["content-encoding"];
        delete headers["content-length"];
        delete headers["transfer-encoding"];
        if (holdTimers) {
          delete headers.etag;
          delete headers["last-modified"];
          headers["cache-control"] = "no-store";
        }
        const body = Buffer.from(html, "utf8");
        res.writeHead(answer.statusCode ?? 502, { ...headers, "content-length": body.length });
        res.end(body);
      });
    });
    upstream.on("error", (error) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`front: ${error.message}\n`);
    });
    req.pipe(upstream);
  };

  // The provider, behind TLS, as the browser sees it through the CONNECT tunnel.
  const providerServer = createServer((req, res) => {
    const url = `https://${req.headers.host}${req.url}`;
    if (!FORM_ORIGINS.has(new URL(url).origin)) {
      refused.push(url);
      res.writeHead(403).end();
      return;
    }
    provider.push(url);
    const { contentType, body } = formProviderAnswer(url);
    res.writeHead(200, { "content-type": contentType, "content-length": body.length });
    res.end(body);
  });

  const server: Server = createServer((req, res) => {
    const target = req.url ?? "/";
    // An absolute URL means the browser used us as its proxy for a plain-HTTP host: never forwarded.
    if (!target.startsWith("/")) {
      refused.push(target);
      res.writeHead(403, { "content-type": "text/plain" }).end("front: requests leaving the machine are refused\n");
      return;
    }
    if (blocked.bundles && target.startsWith("/_astro/")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("front: bundles blocked\n");
      return;
    }
    if (target === ERROR_RECORDER_PATH || target === HELD_TIMERS_PATH) {
      const script = target === ERROR_RECORDER_PATH ? ERROR_RECORDER : HELD_TIMERS_SCRIPT;
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" }).end(script);
      return;
    }
    forward(req, res);
  });
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    const target = req.url ?? "";
    if (!providerTargets.has(target)) {
      (target.startsWith(`${PROXY_PROBE_HOST}:`) ? probes : refused).push(`CONNECT ${target}`);
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    tunnels.add(socket);
    socket.on("close", () => tunnels.delete(socket));
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    const secure = new TLSSocket(socket, { isServer: true, key, cert });
    secure.on("error", () => secure.destroy());
    providerServer.emit("connection", secure);
  });

  const port = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    proxyUrl: `http://127.0.0.1:${port}`,
    refused,
    provider,
    probes,
    get blockBundles() {
      return blocked.bundles;
    },
    set blockBundles(on: boolean) {
      blocked.bundles = on;
    },
    get holdTimers() {
      return blocked.holdTimers;
    },
    set holdTimers(on: boolean) {
      blocked.holdTimers = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        providerServer.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
      }),
  };
}
