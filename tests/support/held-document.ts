import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** Headers that describe the upstream's bytes on the wire, not the page: fetch() has already decoded them. */
const WIRE_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"]);

/**
 * A slow link in front of the project's own server, on a loopback port the OS picks: every request is
 * passed through, but the page at `path` is sent only up to `cut(html)` bytes until `release()` is called,
 * as a document whose rest is still on the way. The browser parses and paints what has arrived.
 * `close()` throws what went wrong on the link (a cut outside the page, an upstream that did not answer).
 * `rewrite` changes the page before it is cut, to show it as a browser that ignores part of it meets it.
 */
export async function heldDocument(upstream: string, path: string, cut: (html: string) => number, rewrite = (html: string) => html) {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let failure: Error | undefined;
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", upstream);
      const answer = await fetch(url, { headers: forwarded(request.headers), redirect: "manual" });
      const headers = Object.fromEntries([...answer.headers].filter(([name]) => !WIRE_HEADERS.has(name)));
      const body = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, headers);
      if (url.pathname !== path) return response.end(body);
      const html = rewrite(body.toString("utf8"));
      const index = cut(html);
      if (index <= 0 || index >= html.length) throw new Error(`the cut (${index}) is not inside ${path} (${html.length} characters)`);
      response.write(html.slice(0, index));
      await released;
      response.end(html.slice(index));
    })().catch((error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      response.destroy(failure);
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise<void>((closed, failed) => server.close(() => (failure ? failed(failure) : closed())));
    },
  };
}

function forwarded(headers: IncomingHttpHeaders): Record<string, string> {
  // Only what the page's answer depends on: no Host (fetch sets the upstream's), no encodings to undo and
  // no conditional headers (a 304 has no body to hold).
  const keep = ["accept", "accept-language"];
  return Object.fromEntries(keep.flatMap((name) => (typeof headers[name] === "string" ? [[name, headers[name]]] : [])));
}
