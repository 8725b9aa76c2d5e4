/**
 * The studio's HTTP connections: how long an idle one is kept, and a graceful stop. Once stopping, the
 * server takes no new connection, answers a new request on a kept-alive one with 503 and
 * `Connection: close`, and waits for the requests under way (a publish: the gate's build, the push to the
 * firm's git host) to finish, up to a bound; only then are the connections left cut. A publish is never
 * cut between the host's answer and the studio's own record of it unless it outlasts the bound.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** How long a stop waits for requests under way; the service manager's own stop timeout must be longer (deploy/studio/studio.service). */
export const DRAIN_MS = 60_000;

export function drainable(listener: (req: IncomingMessage, res: ServerResponse) => void) {
  let underWay = 0;
  let stopping = false;
  let idle: (() => void) | undefined;
  return {
    listener(req: IncomingMessage, res: ServerResponse) {
      if (stopping) {
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", Connection: "close", "Retry-After": "5" });
        return void res.end("The studio is stopping: try again in a moment.\n");
      }
      underWay++;
      res.once("close", () => {
        underWay--;
        if (underWay === 0) idle?.();
      });
      listener(req, res);
    },
    /** Stops taking requests, waits up to `ms` for those under way, then closes every connection; resolves to how many were cut. */
    async drain(server: Server, ms = DRAIN_MS): Promise<number> {
      stopping = true;
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeIdleConnections();
      if (underWay > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((done) => {
          idle = done;
          timer = setTimeout(done, ms);
        });
        clearTimeout(timer);
      }
      const cut = underWay;
      server.closeAllConnections();
      await closed;
      return cut;
    },
  };
}

/**
 * How long an idle kept-alive connection stays open: longer than a proxy's own keep-alive to its
 * upstream (nginx 60 s, most load balancers 60 s), so the proxy, not the studio, closes it. With Node's
 * default (5 s) the studio closed connections a client was about to reuse, and that request failed with
 * "socket hang up" (seen once in 200 edits of bench:studio-disk on a loaded machine).
 */
export const KEEP_ALIVE_MS = 65_000;

export function keepAlive(server: Server) {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node requires the time to read a request's headers to be longer than the keep-alive.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
