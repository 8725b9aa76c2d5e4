/**
 * A graceful stop for the studio's HTTP server: once stopping, it takes no new connection, answers a new
 * request on a kept-alive one with 503 and `Connection: close`, and waits for the requests under way
 * (a publish: the gate's build, the push to the firm's git host) to finish, up to a bound; only then
 * are the connections left cut. A publish is never cut between the host's answer and the studio's own
 * record of it unless it outlasts the bound.
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
