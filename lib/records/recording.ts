/**
 * The archive's recording: a proxy that keeps every request and response as served, the third parties'
 * answers a page asked for (recorded through the capture's browser), and the WARC they are written to.
 */
import { writeFileSync } from "node:fs";
import { Agent, createServer, request, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import type { Route } from "playwright-core";
import { WARCRecord, WARCSerializer } from "warcio";
import { decodeBody } from "./manifest.ts";

export interface Exchange {
  url: string;
  date: string;
  /** The address that answered. */
  ip: string;
  request: { line: string; headers: Array<[string, string]> };
  response: { line: string; status: number; headers: Array<[string, string]>; body: Buffer };
}

const pairs = (raw: string[]) => raw.flatMap((value, i) => (i % 2 === 0 ? [[value, raw[i + 1]!] as [string, string]] : []));
/** A header's value from a recorded list, by lower-case name. */
export const header = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

/**
 * A proxy in front of the site that keeps, per URL, the first request sent for it and the answer the
 * site gave, byte for byte: the status line and raw headers as sent (names, case, order, repeats) and
 * the body as transferred (still brotli- or gzip-encoded).
 *
 * `upstream` is our own server on loopback, or (`recordAs: "upstream"`) a deployed site's origin,
 * http or https: then the request goes out with the origin's Host, and the records carry the origin's
 * URLs, as a visitor would have asked for them. A CDN sends its bodies chunked; Node hands them over
 * de-chunked, so such a body is recorded de-chunked, and its Transfer-Encoding header under the name
 * WARC tools give a header that no longer describes the stored body, X-Archive-Orig-Transfer-Encoding.
 * Our own server never sends one, and for it a chunked answer remains an error: its capture is exact.
 */
export async function recordingProxy(options: { upstream: string; port: number; recordAs?: "proxy" | "upstream" }) {
  const upstream = new URL(options.upstream);
  const fromOrigin = options.recordAs === "upstream";
  const exchanges = new Map<string, Exchange>();
  const errors: string[] = [];
  const send = upstream.protocol === "https:" ? httpsRequest : request;
  const agent = upstream.protocol === "https:" ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const date = new Date().toISOString();
    // The browser names the proxy as its host; the origin is asked for itself.
    const sent = pairs(req.rawHeaders).map(([name, value]): [string, string] =>
      fromOrigin && ["host", "origin", "referer"].includes(name.toLowerCase())
        ? [name, value.replace(proxyHost, upstream.host)]
        : [name, value],
    );
    const target = {
      protocol: upstream.protocol,
      host: upstream.hostname,
      port: upstream.port || undefined,
      servername: upstream.hostname,
    };
    const outgoing = send({ ...target, method: req.method, path: req.url, headers: sent.flat(), agent }, (answer: IncomingMessage) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const body = Buffer.concat(chunks);
        let headers = pairs(answer.rawHeaders);
        if (header(headers, "transfer-encoding")) {
          if (fromOrigin) headers = headers.map(([n, v]) => [n.toLowerCase() === "transfer-encoding" ? `X-Archive-Orig-${n}` : n, v]);
          else errors.push(`${req.url}: the server answered with Transfer-Encoding`);
        }
        const url = `${fromOrigin ? upstream.origin : origin}${req.url}`;
        if (!exchanges.has(url)) {
          exchanges.set(url, {
            url,
            date,
            ip: answer.socket?.remoteAddress ?? "",
            request: { line: `${req.method} ${req.url} HTTP/${req.httpVersion}`, headers: sent },
            response: {
              line: `HTTP/${answer.httpVersion} ${answer.statusCode} ${answer.statusMessage}`,
              status: answer.statusCode ?? 0,
              headers,
              body,
            },
          });
        }
        res.sendDate = false;
        // The body goes to the browser whole; Node frames it (the recorded framing header is left out).
        const forwarded = pairs(answer.rawHeaders).filter(([name]) => name.toLowerCase() !== "transfer-encoding");
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwarded.flat());
        res.end(body);
      });
    });
    outgoing.on("error", (error) => {
      errors.push(`${req.url}: ${error.message}`);
      res.destroy(error);
    });
    req.pipe(outgoing);
  });
  await new Promise<void>((done) => server.listen(options.port, "127.0.0.1", done));
  const proxyHost = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const origin = `http://${proxyHost}`;
  return {
    origin,
    /** The URL a path is recorded under. */
    recordedUrl: (path: string) => `${fromOrigin ? upstream.origin : origin}${path}`,
    exchanges,
    errors,
    close: () =>
      new Promise<void>((done) => {
        agent.destroy();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A third party's answer to a page's request: the status, the header lines as answered, the body as transferred. */
export interface ThirdPartyAnswer {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

/**
 * Where a capture gets a third party's answer to a page's GET (the site's form provider), so that the
 * WARC keeps it and a replay never has to fetch it live; undefined refuses the request. Tests and the
 * records demo answer from local stand-ins (testing/form-provider.ts).
 */
export type ThirdPartyFetch = (request: { url: string; headers: Array<[string, string]> }) => Promise<ThirdPartyAnswer | undefined>;

/** Headers that frame a body in transit: the browser gets the body whole and decoded from the route. */
const FRAMING = new Set(["content-encoding", "content-length", "transfer-encoding"]);

/**
 * The page's requests to anywhere but the site: each answered by `fetch` and recorded (the first answer
 * per URL, as the proxy keeps the site's), or refused and listed. Without `fetch` every one is refused,
 * so nothing leaves the machine.
 */
export function thirdPartyRecorder(fetch: ThirdPartyFetch | undefined) {
  const exchanges = new Map<string, Exchange>();
  const refused = new Set<string>();
  async function answer(route: Route) {
    const request = route.request();
    const url = request.url();
    let exchange = exchanges.get(url);
    if (!exchange && fetch && request.method() === "GET") {
      const target = new URL(url);
      const sent = (await request.headersArray()).map(({ name, value }): [string, string] => [name, value]);
      if (!header(sent, "host")) sent.unshift(["Host", target.host]);
      const date = new Date().toISOString();
      const got = await fetch({ url, headers: sent }).catch(() => undefined);
      if (got) {
        exchange = {
          url,
          date,
          ip: "",
          request: { line: `GET ${target.pathname}${target.search} HTTP/1.1`, headers: sent },
          response: { line: `HTTP/1.1 ${got.status} ${got.statusText}`, status: got.status, headers: got.headers, body: got.body },
        };
        exchanges.set(url, exchange);
      }
    }
    if (!exchange) {
      refused.add(url);
      return route.abort("blockedbyclient");
    }
    const { response } = exchange;
    return route.fulfill({
      status: response.status,
      headers: Object.fromEntries(response.headers.filter(([name]) => !FRAMING.has(name.toLowerCase()))),
      body: decodeBody(response.body, header(response.headers, "content-encoding")),
    });
  }
  return { exchanges, refused, answer };
}

export async function writeWarc(file: string, exchanges: Exchange[], info: Record<string, string>) {
  const parts: Uint8Array[] = [];
  const warcVersion = "WARC/1.1";
  const filename = file.split("/").pop()!;
  parts.push(await WARCSerializer.serialize(WARCRecord.createWARCInfo({ filename, warcVersion }, info), { gzip: true }));
  for (const exchange of exchanges) {
    const response = WARCRecord.create(
      {
        url: exchange.url,
        date: exchange.date,
        type: "response",
        warcVersion,
        statusline: exchange.response.line,
        httpHeaders: exchange.response.headers,
        warcHeaders: exchange.ip ? { "WARC-IP-Address": exchange.ip.replace(/^::ffff:/, "") } : {},
      },
      [exchange.response.body],
    );
    const requestRecord = WARCRecord.create(
      {
        url: exchange.url,
        date: exchange.date,
        type: "request",
        warcVersion,
        statusline: exchange.request.line,
        httpHeaders: exchange.request.headers,
        warcHeaders: { "WARC-Concurrent-To": response.warcHeader("WARC-Record-ID")! },
      },
      [],
    );
    parts.push(await WARCSerializer.serialize(response, { gzip: true }));
    parts.push(await WARCSerializer.serialize(requestRecord, { gzip: true }));
  }
  writeFileSync(file, Buffer.concat(parts));
}
