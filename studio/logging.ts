/**
 * The studio's log on stdout: one JSON object per line (journald, a container runtime or a log shipper
 * reads it as is), one line per request and one per workflow event. Each line has its time (ISO 8601,
 * UTC) and what it is (`msg`). A request line names the request id, method, route, status, duration
 * and the signed-in person's subject; never a header, a query string, a body, a cookie or a token, so
 * nothing secret can reach the log through it (the sign-in's callback carries its code in the query).
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { StudioEnv } from "./auth/routes.ts";

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * Where lines go: stdout (writes to a pipe or a file are synchronous on Linux, so a line is never lost at
 * exit), nowhere with `STUDIO_LOG=off` (the test suites, which start studios by the dozen), or a test's sink.
 */
let sink: (line: string) => void = (line) => void (process.env.STUDIO_LOG === "off" || process.stdout.write(line));

/** Replaces where lines go (tests); returns the previous sink. */
export function setLogSink(next: (line: string) => void): (line: string) => void {
  const previous = sink;
  sink = next;
  return previous;
}

/** One line of the log. Undefined fields are left out. */
export function logLine(msg: string, fields: LogFields = {}): void {
  sink(`${JSON.stringify({ time: new Date().toISOString(), msg, ...fields })}\n`);
}

/** A proxy's request id is kept when it looks like one (so its log and ours join up); anything else gets a new one. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** A replay's address carries its pass, a capability (decision 0047): the log names where, never the pass. */
const withoutPass = (path: string) => path.replace(/^(\/admin\/records\/capture\/[^/]+\/replay\/)[^/]+/, "$1(pass)");

/**
 * One line per request, written when the answer is ready (its status known), and the request id sent
 * back as `X-Request-Id`. `route` is the pattern that answered (`/admin/review/:collection/:slug`), so
 * the log groups requests by what they asked for; `path` is the path alone, without its query.
 */
export function requestLog(): MiddlewareHandler<StudioEnv> {
  return async (c, next) => {
    const started = performance.now();
    const offered = c.req.header("x-request-id");
    const id = offered && REQUEST_ID.test(offered) ? offered : randomUUID();
    try {
      await next();
    } finally {
      c.res.headers.set("X-Request-Id", id);
      // Set by the session guard (or the loopback developer) when the request got that far.
      const actor = (c.get("session") as StudioEnv["Variables"]["session"] | undefined)?.actor;
      logLine("request", {
        id,
        method: c.req.method,
        route: routePath(c),
        path: withoutPass(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        subject: actor && !actor.local ? actor.subject : undefined,
      });
    }
  };
}
