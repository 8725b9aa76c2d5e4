/**
 * The studio's HTTP, on a router (hono): the request guards, sign-in (server mode) or the one local
 * developer (loopback), the admin page and its assets, the git API behind the role screen, the
 * preview pane, and the studio's own pages. `createStudio` returns the fetch handler for
 * @hono/node-server and what must be closed with it.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { stringify } from "yaml";
import { parseRoster, ROSTER_FILE, type RosterEntry } from "../lib/approval/roster.ts";
import { git, syncMainBack, StudioRefusal } from "./git.ts";
import type { Settings } from "./settings.ts";
import { authRoutes, requireSession, type StudioEnv } from "./auth/routes.ts";
import { relyingParty } from "./auth/oidc.ts";
import { SessionStore, type Actor } from "./auth/sessions.ts";
import type { DecapBackend } from "./decap/backend.ts";
import { inStudioWords } from "./decap/answers.ts";
import { adminCsp, ownRequests, securityHeaders } from "./http/guards.ts";
import { adminAssetRoutes, MAX_BODY } from "./http/admin-routes.ts";
import { studioConfig } from "./config.ts";
import { branchPreviews } from "./previews.ts";
import { gitApi } from "./workflow/api.ts";
import { entryName } from "./workflow/entries.ts";
import { buildOf, warmBuildWorker, openBuilds } from "./workflow/builds.ts";
import { logPublished, publishRefusal, publishToOrigin } from "./workflow/publish.ts";
import { askHost, HostSync } from "./workflow/host.ts";
import { scheduledPublishing, type Scheduler } from "./workflow/schedule.ts";
import { pageRoutes } from "./pages/routes.ts";
import { discardRoutes } from "./pages/discard.tsx";
import { reviewUrl } from "./pages/review.tsx";
import { openRecords } from "./records/records.ts";
import { recordsRoutes } from "./records/routes.ts";
import { replayService } from "./records/replay-routes.ts";
import { healthRoutes, studioChecks } from "./http/health.ts";
import { requestLog } from "./logging.ts";

export interface StudioDeps {
  settings: Settings;
  /** The checkout the studio runs from (node_modules, src/ for the preview pane, .studio/). */
  project: string;
  /** The studio's clone, which decap-server works on. */
  repo: string;
  decap: DecapBackend;
  /** Where browsers reach the studio. */
  publicUrl: URL;
  /** Loopback: who the one developer is (the project's git identity). */
  localActor?: Actor;
  /** Where the records are (ARCHIVE_STORE, ARCHIVE_TSA_CA); the process's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/** The roster as `main` holds it (read again whenever main moves: a change merged in the repository applies at once). */
function rosterReader(repo: string): () => RosterEntry[] {
  let cached: { blob: string; roster: RosterEntry[] } | undefined;
  return () => {
    let blob: string;
    try {
      blob = git(repo, "rev-parse", `main:${ROSTER_FILE}`);
    } catch {
      return [];
    }
    if (cached?.blob !== blob) cached = { blob, roster: parseRoster(git(repo, "cat-file", "blob", blob)) };
    return cached.roster;
  };
}

export async function createStudio(deps: StudioDeps) {
  const { settings, project: root, repo, publicUrl } = deps;
  const server = settings.mode === "server" ? settings : undefined;
  const roster = rosterReader(repo);
  const app = new Hono<StudioEnv>();
  const records = await openRecords(deps.env ?? process.env, root, repo);
  app.use(requestLog());
  const hosts = server ? [publicUrl.host] : [`127.0.0.1:${publicUrl.port}`, `localhost:${publicUrl.port}`];
  app.use(securityHeaders(adminCsp(server ? server.issuer.origin : "")));
  // Before the Host check and the sign-in: a load balancer asks by the studio's own address, signed in as nobody.
  app.route(
    "/",
    healthRoutes(
      studioChecks({
        repo,
        decap: () => deps.decap.forward('{"action":"info","params":{}}', { reads: true }),
        issuer: server?.issuer,
        store: () => records.store.check(),
        gitHost: server && ((timeoutMs) => askHost(repo, timeoutMs)),
      }),
    ),
  );
  app.use(
    ownRequests(
      hosts,
      hosts.map((host) => `${publicUrl.protocol}//${host}`),
    ),
  );

  // A replay's frame sends no cookie: the pass in its address lets it in, ahead of the sign-in (decision 0047).
  const replaying = replayService(records);
  if (server) {
    const sessions = new SessionStore({ idleMs: server.idleMs, maxMs: server.maxMs });
    const rp = relyingParty(server);
    void rp.config().catch((error: Error) => console.warn(`studio: ${error.message}; sign-in will try again`));
    app.route("/", authRoutes({ settings: server, rp, sessions, roster }));
    app.route(
      "/",
      replaying.routes((id) => sessions.peek(id)),
    );
    app.use(requireSession(sessions));
  } else {
    const local = new SessionStore({ idleMs: Infinity, maxMs: Infinity }).create(deps.localActor!);
    app.route(
      "/",
      replaying.routes((id) => (id === local.id ? local : undefined)),
    );
    app.use(async (c, next) => (c.set("session", local), next()));
  }

  const builds = openBuilds(root, repo);
  const previews = server ? undefined : branchPreviews(root, repo);
  // Server mode: the board and the review log go to the firm's git host after every change (decision 0038).
  const hostSync = server ? new HostSync(repo) : undefined;
  const logged = hostSync && (() => hostSync.push());
  void logged?.();
  // Builds made ahead, so a review opens without waiting for them: main's now, an entry's when it is sent to review.
  const warm = (revision: string) => void buildOf(root, repo, revision).catch(() => undefined);
  warm("main");
  // The build worker warmed too, so that the first review takes a third of the time (decision 0054).
  if (server?.warmBuilds) void warmBuildWorker(root, repo).catch(() => undefined);
  const clock = server?.clock ?? (() => new Date());
  // Server mode: the studio's timer publishes at the moments principals approved (decision 0057).
  let scheduler: Scheduler | undefined;
  const api = gitApi({
    repo,
    decap: deps.decap,
    logged,
    board: hostSync && (() => (hostSync.record(), scheduler?.reload())),
    submitted: (entry) => warm(entry.head),
    async own(action, params, session, entry, forward) {
      // The site has no media library (collections take no uploads): Decap asks for it on every start.
      if (action === "getMedia") return [];
      if (action === "getDeployPreview") {
        if (previews) return previews.deployPreview(params);
        return entry ? { url: new URL(reviewUrl(entry), publicUrl).href, status: "SUCCESS" } : null;
      }
      if (!entry) throw new StudioRefusal("This entry has no draft to publish.");
      if (hostSync) {
        const published = await publishToOrigin(root, repo, entry, session.actor, hostSync);
        warm("main");
        return { message: published.message };
      }
      const refusal = await publishRefusal(root, repo, entry.branch);
      if (refusal) throw new StudioRefusal(refusal);
      const name = entryName(repo, entry);
      const answer = await forward();
      if (answer.status >= 300)
        throw new StudioRefusal(
          (JSON.parse(inStudioWords(action, answer).body) as { error?: string }).error ?? "Not published: try again.",
        );
      logPublished(repo, entry, name, git(repo, "rev-parse", "main"), session.actor);
      const waiting = syncMainBack(root, repo);
      if (waiting) console.warn(`studio: ${waiting}`);
      return JSON.parse(answer.body) as unknown;
    },
  });

  app.post("/api/v1", bodyLimit({ maxSize: MAX_BODY, onError: (c) => c.text("Too large\n", 413) }), async (c) => {
    if (!/^application\/json\b/.test(c.req.header("content-type") ?? "")) return c.text("JSON only\n", 415);
    let body: { action?: unknown; params?: unknown };
    try {
      body = (await c.req.json()) as typeof body;
    } catch {
      return c.json({ error: "The request is not JSON." }, 400);
    }
    const params = (body?.params && typeof body.params === "object" ? body.params : {}) as Record<string, unknown>;
    const answer = await api.handle(typeof body?.action === "string" ? body.action : "", params, c.get("session"));
    return c.body(answer.body, answer.status as 200, { "Content-Type": "application/json" });
  });
  if (server && hostSync) {
    scheduler = scheduledPublishing({ root, repo, host: hostSync, serially: api.serially, logged: () => hostSync.push(), now: clock });
    scheduler.start();
  }
  app.route("/", discardRoutes({ repo, api }));
  app.route(
    "/",
    pageRoutes({
      root,
      repo,
      freshMs: server?.freshMs ?? Infinity,
      roster,
      serially: api.serially,
      logged,
      hostSync,
      ...(server ? { now: clock, scheduling: { timeZone: server.timeZone, changed: () => scheduler?.reload() } } : {}),
    }),
  );
  app.route("/", recordsRoutes({ records, repo, serially: api.serially, logged, replaying }));
  // Decap's files last: their route takes any name under /admin/.
  app.route("/", adminAssetRoutes({ root, config: () => stringify(studioConfig()) }));
  app.get("/api/v1", (c) => c.text("POST only\n", 405));
  app.notFound((c) =>
    c.req.method === "GET" || c.req.method === "HEAD" ? c.text("Not found\n", 404) : c.text("Method not allowed\n", 405),
  );
  // A fault of the studio's own: what failed goes to its log, never to the page (it may name paths and addresses).
  app.onError((error, c) => {
    console.error(`studio: ${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}`);
    return c.json(
      { error: "The studio could not do that because of a fault of its own: try again, and tell its administrator if it goes on." },
      500,
    );
  });
  return {
    fetch: app.fetch,
    close: async () => void (scheduler?.close(), hostSync?.close(), await Promise.all([previews?.close(), builds.stop()])),
  };
}
