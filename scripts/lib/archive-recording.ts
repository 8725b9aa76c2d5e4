/** The archive's recording: a proxy that keeps every request and response as served, and the WARC they are written to. */
import { writeFileSync } from "node:fs";
import { Agent, createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { WARCRecord, WARCSerializer } from "warcio";

export interface Exchange {
  url: string;
  date: string;
  request: { line: string; headers: Array<[string, string]> };
  response: { line: string; status: number; headers: Array<[string, string]>; body: Buffer };
}

const pairs = (raw: string[]) => raw.flatMap((value, i) => (i % 2 === 0 ? [[value, raw[i + 1]!] as [string, string]] : []));
/** A header's value from a recorded list, by lower-case name. */
export const header = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

/**
 * A proxy in front of the site server that keeps, per URL, the first request the browser sent and the
 * answer the server gave, byte for byte: the status line and raw headers as sent (names, case, order,
 * repeats) and the body as transferred (still brotli- or gzip-encoded).
 */
export async function recordingProxy(upstreamPort: number, port: number) {
  const exchanges = new Map<string, Exchange>();
  const errors: string[] = [];
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const date = new Date().toISOString();
    const upstream = request(
      { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.rawHeaders, agent },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          const headers = pairs(answer.rawHeaders);
          // Node hands a chunked body over de-chunked: it could not be stored exactly as sent.
          if (header(headers, "transfer-encoding")) errors.push(`${req.url}: the server answered with Transfer-Encoding`);
          const url = `${origin}${req.url}`;
          if (!exchanges.has(url)) {
            exchanges.set(url, {
              url,
              date,
              request: { line: `${req.method} ${req.url} HTTP/${req.httpVersion}`, headers: pairs(req.rawHeaders) },
              response: {
                line: `HTTP/${answer.httpVersion} ${answer.statusCode} ${answer.statusMessage}`,
                status: answer.statusCode ?? 0,
                headers,
                body,
              },
            });
          }
          res.sendDate = false;
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          res.end(body);
        });
      },
    );
    upstream.on("error", (error) => {
      errors.push(`${req.url}: ${error.message}`);
      res.destroy(error);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
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
        warcHeaders: { "WARC-IP-Address": "127.0.0.1" },
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
