/**
 * The replay's route (decision 0047), mounted before the studio's sign-in guard: a replay's frame is an
 * opaque origin and sends no cookie, so its requests are let in by the pass in their address alone
 * (replay-pass.ts), which names the signed-in person's session, the capture and the view. The capture's
 * page issues the pass; this route answers from the capture's WARC (replay.ts), or refuses in one
 * sentence.
 */
import { Hono, type Context } from "hono";
import type { StudioEnv } from "../auth/routes.ts";
import type { Session } from "../auth/sessions.ts";
import type { Records } from "./records.ts";
import { overlaysScript } from "./replay-overlays.ts";
import { ReplayPasses } from "./replay-pass.ts";
import { ReplayCache, replay } from "./replay.ts";

/** Where one view of a capture is replayed: every address of the replay starts with it. */
export const replayRoot = (capture: string, pass: string) => `/admin/records/capture/${capture}/replay/${pass}`;

/** A refusal inside the replay's frame: one sentence, nothing to load, framed by the studio alone. */
function refusal(status: 403 | 404 | 503, sentence: string): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Replay not shown</title></head>
<body><p>${sentence}</p></body></html>\n`;
  return new Response(body, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "sandbox; default-src 'none'; frame-ancestors 'self'",
    },
  });
}

/** The studio's origin as the browser reached it (the Host header was checked before this route). */
function studioOrigin(c: Context<StudioEnv>): string {
  const scheme = c.req.header("x-forwarded-proto") === "https" ? "https:" : new URL(c.req.url).protocol;
  return `${scheme}//${c.req.header("host") ?? new URL(c.req.url).host}`;
}

/** The replay's shared state (the WARCs read, the passes given) and its route, for a session lookup of the studio's mode. */
export function replayService(records: Records) {
  const cache = new ReplayCache(records.store);
  const passes = new ReplayPasses();

  function routes(sessionById: (id: string) => Session | undefined) {
    const app = new Hono<StudioEnv>();
    const answer = async (c: Context<StudioEnv>) => {
      const name = c.req.param("name") ?? "";
      const pass = c.req.param("pass") ?? "";
      const granted = passes.open(pass, name, sessionById);
      if (!granted)
        return refusal(
          403,
          "This replay's address no longer opens it: its pass lasts an hour and ends with the session it was made for. Open the capture again from the Records.",
        );
      // The request's log line names the person the pass was made for.
      c.set("session", granted.session);
      // Assets of a replay come in bursts: the index as the capture's page last refreshed it is enough to find them.
      const entry = records.catalog.entries().find((e) => e.name === name);
      if (!entry?.warc || !entry.origin) return refusal(404, "This capture has no web archive to replay.");
      const root = replayRoot(name, pass);
      const url = new URL(c.req.url);
      const destination = c.req.header("sec-fetch-dest");
      const framed = destination === "iframe" || destination === "frame";
      let responses;
      try {
        responses = await cache.responses(entry.name, entry.warc);
      } catch (error) {
        console.error(`studio: records: the replay of ${name} could not read its WARC: ${(error as Error).message}`);
        return refusal(503, "The records store could not be read just now, so this replay cannot be shown: try again in a few minutes.");
      }
      return replay(
        responses,
        { origin: entry.origin, studio: studioOrigin(c), root },
        {
          path: `${url.pathname.slice(root.length) || "/"}${url.search}`,
          document: destination === undefined || destination === "document" || framed,
          // An opaque origin (a replayed page) asking for a frame is cross-site to the studio; the studio's page is not.
          framedByReplay: framed && c.req.header("sec-fetch-site") === "cross-site",
          first: await overlaysScript(granted.overlays),
        },
      );
    };
    app.get("/admin/records/capture/:name/replay/:pass", answer);
    app.get("/admin/records/capture/:name/replay/:pass/*", answer);
    return app;
  }
  return { cache, passes, routes };
}

export type ReplayService = ReturnType<typeof replayService>;
