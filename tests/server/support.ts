/** Shared by the server tests: the real server over the real dist/, and a raw-socket client. */
import { existsSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { createSiteServer, loadSecurityHeaders, type SiteServerOptions } from "../../server/app.ts";
import { projectRoot } from "../../lib/root.ts";

export { projectRoot };
export const dist = fileURLToPath(new URL("../../dist", import.meta.url));

export function requireBuild() {
  // npm test builds first; a missing build is an error to see, not a reason to skip.
  if (!existsSync(`${dist}/_headers`)) throw new Error("dist/ is not built: run `npm run build` (npm test does it for you)");
}

/** The headers every answer must carry (the plain-HTTP set our server derives from dist/_headers). */
export const expectedSecurityHeaders = () => loadSecurityHeaders(dist);

export interface Running {
  port: number;
  origin: string;
  close(): Promise<void>;
}

export async function startServer(options: Partial<SiteServerOptions> = {}): Promise<Running> {
  requireBuild();
  const server = createSiteServer({ root: dist, ...options });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface RawResponse {
  statusLine: string;
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** Everything the server sent, for "never this byte" checks. */
  raw: Buffer;
}

/** Sends bytes exactly as given (no client normalises the path) and reads until the server closes. */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(typeof request === "string" ? Buffer.from(request, "latin1") : request));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    // The server may reset after answering a request whose body it refused to read; what it sent still counts.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(raw.toString("latin1").slice(0, 200))}`));
      const [statusLine = "", ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(":");
        const name = line.slice(0, at).trim().toLowerCase();
        const value = line.slice(at + 1).trim();
        headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
      }
      resolve({ statusLine, status: Number(statusLine.split(" ")[1]), headers, body: raw.subarray(end + 4), raw });
    });
  });
}

export const distFile = (path: string) => readFileSync(`${dist}${path}`);

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, so the bytes are what the server sent (no transparent decompression, no redirect followed). */
export function send(origin: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}
