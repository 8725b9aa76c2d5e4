/**
 * ReplayWeb.page on loopback, for the proof that the archiving world opens the examiner's WACZ (issue 55):
 * the registry's `replaywebpage` (its bundled `ui.js`, `sw.js` and `index.html`; a test dependency only,
 * AGPL-3.0, decision 0055), a page embedding `<replay-web-page>` for one archived address and time, and
 * the WACZ with byte ranges, as a static host serves it. `refuseOutside` refuses, and records, every
 * request a page or the replay's service worker makes for anywhere else.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import type { BrowserContext } from "playwright-core";

// The package exports its index.html (not its package.json): the folder of the bundles beside it.
const PACKAGE = dirname(createRequire(import.meta.url).resolve("replaywebpage/index.html"));
const FILES: Record<string, { file: string; type: string }> = {
  "/replay/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/replay/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/replay/ui.js": { file: "ui.js", type: "text/javascript" },
  "/replay/sw.js": { file: "sw.js", type: "text/javascript" },
};

export interface ReplayHost {
  origin: string;
  /** The page that replays `url` as archived at `ts` (YYYYMMDDhhmmss), or the nearest capture when none is given. */
  pageFor(url: string, ts?: string): string;
  close(): Promise<void>;
}

export async function serveReplay(wacz: string): Promise<ReplayHost> {
  const size = statSync(wacz).size;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/") {
      const target = url.searchParams.get("url") ?? "";
      const ts = url.searchParams.get("ts");
      const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Replay</title><script src="/replay/ui.js"></script></head>` +
            `<body><replay-web-page style="display:block;height:800px" source="/records.wacz" replayBase="/replay/" embed="replayonly"` +
            ` url="${attribute(target)}"${ts ? ` ts="${attribute(ts)}"` : ""}></replay-web-page></body></html>`,
        );
    }
    const known = FILES[url.pathname];
    if (known) return void res.writeHead(200, { "content-type": known.type }).end(readFileSync(join(PACKAGE, known.file)));
    if (url.pathname === "/records.wacz") {
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
      const headers = { "content-type": "application/wacz+zip", "accept-ranges": "bytes" };
      if (!range) {
        res.writeHead(200, { ...headers, "content-length": size });
        return void (req.method === "HEAD" ? res.end() : createReadStream(wacz).pipe(res));
      }
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
      res.writeHead(206, { ...headers, "content-range": `bytes ${start}-${end}/${size}`, "content-length": end - start + 1 });
      return void (req.method === "HEAD" ? res.end() : createReadStream(wacz, { start, end }).pipe(res));
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pageFor: (target, ts) => `${origin}/?url=${encodeURIComponent(target)}${ts ? `&ts=${ts}` : ""}`,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

/**
 * Refuses every request of the context's pages and service workers (Playwright reports both in Chromium)
 * for anywhere but `origin`, and returns the list of those refused: the proof that nothing left loopback.
 */
export async function refuseOutside(context: BrowserContext, origin: string): Promise<string[]> {
  const outside: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    outside.push(url);
    return route.abort("blockedbyclient");
  });
  return outside;
}
