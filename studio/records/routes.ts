/**
 * The records' routes, for compliance and principals (and the loopback studio's one developer); an
 * editor gets 403 with one sentence. Timeline and "as of", one capture with its PDFs, the pass of its
 * replay (whose own route, replay-routes.ts, comes before the sign-in) and its raw files, compare, and
 * the examiner's export (a form post: token checked, recorded in the log). An address that names
 * nothing the store has is answered 4xx in one sentence (refusals.ts).
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { asOf, type CaptureEntry } from "../../lib/records/catalog.ts";
import { selectForExport, writeExport } from "../../lib/records/export.ts";
import { waczReadme, writeWacz } from "../../lib/records/wacz.ts";
import { requestTimestamp } from "../../lib/records/timestamp.ts";
import { CAPTURE_NAME } from "../../lib/records/manifest.ts";
import { checkFilePath, StoreError } from "../../lib/records/store.ts";
import type { StudioEnv } from "../auth/routes.ts";
import { readsRecords } from "../auth/roles.ts";
import { checkFormToken } from "../http/guards.ts";
import { documentOf, sendPage } from "../pages/render.ts";
import { FRAME_CSP } from "../pages/routes.ts";
import { appendEvent } from "../workflow/log.ts";
import { CapturePage, NoCapturePage } from "./capture-page.tsx";
import { compareFrame, ComparePage, comparedPages } from "./compare.tsx";
import { ExportPage, readSelection, type ExportForm } from "./export-page.tsx";
import { parseMoment } from "./format.ts";
import { storeTrouble, type Records } from "./records.ts";
import { comparedPair, noSuchCapture, NoSuchPage, overlaysAsked, RefusalPage, storedFilePath } from "./refusals.tsx";
import type { Overlays } from "./replay-overlays.ts";
import { replayRoot, type ReplayService } from "./replay-routes.ts";
import { BuildingPage, NotForYouPage, UnavailablePage } from "./status-pages.tsx";
import { TimelinePage } from "./timeline.tsx";

export interface RecordsDeps {
  records: Records;
  repo: string;
  serially<T>(task: () => Promise<T>): Promise<T>;
  logged?(): Promise<void>;
  /** The replay's WARCs and passes, shared with its route. */
  replaying: ReplayService;
}

const PREFIX = "/admin/records";

export function recordsRoutes(deps: RecordsDeps) {
  const { records } = deps;
  const { cache, passes } = deps.replaying;
  const app = new Hono<StudioEnv>();
  type Session = StudioEnv["Variables"]["session"];
  /**
   * Every capture (one listing of the store per request; with `names`, of the names and of those captures'
   * files alone), or the page that says why there is none to show yet.
   */
  async function all(session: Session, names?: string[]): Promise<CaptureEntry[] | { page: string }> {
    const found = await (names ? records.look(names) : records.entries());
    if ("unavailable" in found) return { page: documentOf(UnavailablePage, { session, reason: found.unavailable }) };
    // The index being built at the first look: the page loads itself again.
    if ("building" in found)
      return { page: documentOf(BuildingPage, { session, storeLabel: records.store.label, progress: found.building }) };
    return found;
  }

  const guard: MiddlewareHandler<StudioEnv> = async (c, next) => {
    if (readsRecords(c.get("session").actor)) return next();
    return sendPage(c, NotForYouPage, { session: c.get("session") }, 403);
  };
  app.use(PREFIX, guard);
  app.use(`${PREFIX}/*`, guard);
  // The store failing under a page (a capture's files, a replay, an export): that page says so, never a 500.
  app.onError((error, c) => {
    if (!(error instanceof StoreError)) throw error;
    return sendPage(c, UnavailablePage, { session: c.get("session"), reason: storeTrouble(records.store, error) }, 503);
  });

  /** The capture of that name, with the complete ones before and after it; undefined for a name the store does not have. */
  function find(entries: CaptureEntry[], name: string) {
    const index = CAPTURE_NAME.test(name) ? entries.findIndex((e) => e.name === name) : -1;
    if (index < 0) return undefined;
    return {
      all: entries,
      entry: entries[index]!,
      previous: entries.slice(0, index).findLast((e) => e.complete),
      next: entries.slice(index + 1).find((e) => e.complete),
    };
  }

  /** A capture's page, or 404 naming the page asked for when the capture has none at that address. */
  async function showCapture(
    session: Session,
    found: NonNullable<ReturnType<typeof find>>,
    page: string | undefined,
    options: { asOf?: { at: string; dayOnly: boolean }; recheck?: boolean; overlays: Overlays },
  ): Promise<{ page: string; status: 200 | 404 }> {
    const entry = (options.recheck && (await records.recheck(found.entry.name))) || found.entry;
    if (page !== undefined && entry.complete && !entry.pages.some((p) => p.path === page))
      return { page: documentOf(NoSuchPage, { session, entry, page }), status: 404 };
    const path = page ?? entry.pages[0]?.path ?? "/";
    const shown = entry.pages.find((p) => p.path === path);
    const recorded = shown && entry.warc ? (await cache.responses(entry.name, entry.warc)).get(shown.url) : undefined;
    const day = options.asOf?.at.slice(0, 10);
    const replay = { root: replayRoot(entry.name, passes.issue(session, entry.name, options.overlays)), overlays: options.overlays };
    return {
      status: 200,
      page: documentOf(CapturePage, {
        session,
        view: {
          entry,
          previous: found.previous,
          next: found.next,
          page: path,
          recorded,
          asOf: options.asOf && { ...options.asOf, sameDay: found.all.filter((e) => e.complete && e.time.slice(0, 10) === day) },
          storeLabel: records.store.label,
          writeOnce: records.store.writeOnce,
          replay,
        },
      }),
    };
  }

  /** The replay's view asked for, or the page that says there is no such view. */
  const viewOf = (
    c: { req: { query(name: string): string | undefined } },
    session: Session,
  ): { overlays: Overlays } | { refused: string } => {
    const overlays = overlaysAsked(c.req.query("overlays"));
    if (overlays) return { overlays };
    const sentence = `"${c.req.query("overlays")}" is no view of a replay: leave it out, or ask for overlays=closed.`;
    return { refused: documentOf(RefusalPage, { session, title: "No such view", sentence }) };
  };

  app.get(PREFIX, async (c) => {
    const session = c.get("session");
    const atText = c.req.query("at");
    // The timeline shows every capture's state: it looks at every file; "as of" at the names, then at one capture.
    const entries = await all(session, atText === undefined ? undefined : []);
    if (!Array.isArray(entries)) return c.html(entries.page, 503);
    const before = c.req.query("before");
    if (before !== undefined && !CAPTURE_NAME.test(before))
      return sendPage(c, RefusalPage, { session, title: "No such part of the timeline", sentence: noSuchCapture(before) }, 400);
    if (atText === undefined)
      return sendPage(c, TimelinePage, {
        session,
        entries,
        before,
        storeLabel: records.store.label,
        writeOnce: records.store.writeOnce,
      });
    const at = parseMoment(atText);
    if (!at)
      return sendPage(
        c,
        RefusalPage,
        {
          session,
          title: "Not a moment",
          sentence: `"${atText}" is not a date and time: use the form, or write it as 2026-03-14T12:00 (UTC).`,
        },
        400,
      );
    const view = viewOf(c, session);
    if ("refused" in view) return c.html(view.refused, 400);
    const inForce = asOf(entries, at).current;
    // The one capture shown is looked at again, file by file.
    const looked = inForce ? await all(session, [inForce.name]) : entries;
    if (!Array.isArray(looked)) return c.html(looked.page, 503);
    const { current, first } = asOf(looked, at);
    if (!current) return sendPage(c, NoCapturePage, { session, at: at.toISOString(), first });
    const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(atText.trim());
    const shown = await showCapture(session, find(entries, current.name)!, c.req.query("page"), {
      asOf: { at: at.toISOString(), dayOnly },
      overlays: view.overlays,
    });
    return c.html(shown.page, shown.status);
  });

  app.get(`${PREFIX}/capture/:name`, async (c) => {
    const session = c.get("session");
    const name = c.req.param("name");
    const view = viewOf(c, session);
    if ("refused" in view) return c.html(view.refused, 400);
    const entries = CAPTURE_NAME.test(name) ? await all(session, [name]) : [];
    if (!Array.isArray(entries)) return c.html(entries.page, 503);
    const found = find(entries, name);
    if (!found) return sendPage(c, RefusalPage, { session, title: "No such capture", sentence: noSuchCapture(name) }, 404);
    const shown = await showCapture(session, found, c.req.query("page"), {
      recheck: c.req.query("check") === "now",
      overlays: view.overlays,
    });
    return c.html(shown.page, shown.status);
  });

  /** A stored file as it is kept: the PDFs shown inline, the rest as downloads; a name the capture has no file of, 4xx in one sentence. */
  const file = (disposition: "inline" | "attachment") => async (c: Context<StudioEnv>) => {
    const session = c.get("session");
    const name = c.req.param("name") ?? "";
    const asked = disposition === "inline" ? { path: `pdf/${c.req.param("file")}` } : storedFilePath(new URL(c.req.url).pathname);
    if ("malformed" in asked)
      return sendPage(
        c,
        RefusalPage,
        {
          session,
          title: "No such file",
          sentence: `"${asked.malformed}" is not a file name: it has a broken %-escape. Open the capture's files from its page.`,
        },
        400,
      );
    const { path } = asked;
    if (!CAPTURE_NAME.test(name))
      return sendPage(c, RefusalPage, { session, title: "No such capture", sentence: noSuchCapture(name) }, 404);
    let bytes: Buffer | undefined;
    try {
      checkFilePath(path);
      bytes = disposition === "inline" && !path.endsWith(".pdf") ? undefined : await records.store.read(name, path);
    } catch {
      bytes = undefined;
    }
    if (!bytes)
      return sendPage(c, RefusalPage, { session, title: "No such file", sentence: `The capture ${name} has no file named ${path}.` }, 404);
    const type = disposition === "inline" ? "application/pdf" : "application/octet-stream";
    // The PDF is framed by the capture's page; Chromium's viewer needs no script of ours, and nothing else may frame it.
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": type,
      "Content-Disposition": `${disposition}; filename="${name}-${path.split("/").pop()}"`,
      "Content-Security-Policy": "default-src 'none'; frame-ancestors 'self'",
    });
  };
  app.get(`${PREFIX}/capture/:name/pdf/:file`, file("inline"));
  app.get(`${PREFIX}/capture/:name/files/*`, file("attachment"));

  app.get(`${PREFIX}/compare`, async (c) => {
    const session = c.get("session");
    const entries = await all(session);
    if (!Array.isArray(entries)) return c.html(entries.page, 503);
    const asked = comparedPair(entries, c.req.query("a"), c.req.query("b"));
    if ("refused" in asked) return sendPage(c, ComparePage, { session, entries, problem: asked.refused }, asked.status);
    if (!asked.pair) return sendPage(c, ComparePage, { session, entries });
    const { a, b } = asked.pair;
    return sendPage(c, ComparePage, { session, entries, compared: { a, b, sections: await comparedPages(cache, a, b) } });
  });

  app.get(`${PREFIX}/compare/frame`, async (c) => {
    // Framed by the compare page, which has just looked at the store.
    const entries = records.catalog.entries();
    const [a, b] = [c.req.query("a"), c.req.query("b")].map((name) => entries.find((e) => e.name === name && e.complete));
    const page = a && b && (await compareFrame(cache, a, b, c.req.query("page") ?? "/", c.req.query("side") === "a" ? "a" : "b"));
    if (!page) return c.text("Neither of these captures has that page, or one of them is no complete capture of the store.\n", 404);
    return c.html(page, 200, { "Content-Security-Policy": FRAME_CSP });
  });

  app.get(`${PREFIX}/export`, (c) => sendPage(c, ExportPage, { session: c.get("session") }));
  app.post(`${PREFIX}/export`, async (c) => {
    const session = c.get("session");
    const posted = await c.req.parseBody();
    if (!checkFormToken(session.csrf, posted._csrf))
      return c.text("This form has expired or did not come from the studio: reload the page and try again.\n", 403);
    const form: ExportForm = { from: String(posted.from ?? ""), to: String(posted.to ?? ""), dates: String(posted.dates ?? "") };
    const selection = readSelection(form);
    if ("error" in selection) return sendPage(c, ExportPage, { session, form, problem: selection.error, fields: selection.fields }, 400);
    const entries = await all(session);
    if (!Array.isArray(entries)) return c.html(entries.page, 503);
    const chosen = selectForExport(entries, "dates" in selection ? { dates: selection.dates } : { from: selection.from, to: selection.to });
    if (chosen.captures.length === 0)
      return sendPage(
        c,
        ExportPage,
        {
          session,
          form,
          problem: "No capture was in force on those days, so there is nothing to export.",
          fields: "dates" in selection ? ["dates"] : ["from", "to"],
          notes: chosen.notes,
        },
        404,
      );
    // "Make the export" sends format=zip; "Download as WACZ" format=wacz (the same captures for the
    // web-archiving world's tools, decision 0055).
    const wacz = posted.format === "wacz";
    const scratch = mkdtempSync(join(tmpdir(), "records-export-"));
    const file = join(scratch, wacz ? "export.wacz" : "export.zip");
    const { actor } = session;
    try {
      const made = wacz
        ? await writeWacz({
            store: records.store,
            captures: chosen.captures,
            file,
            readme: ({ fingerprint }) => waczReadme({ captures: chosen.captures.length, notes: chosen.notes, by: actor.name, fingerprint }),
            ...(records.waczKey ? { key: records.waczKey } : {}),
            ...(records.tsaUrl ? { timestamp: (data: Uint8Array) => requestTimestamp(records.tsaUrl!, data) } : {}),
            ...(records.tsaCa ? { tsaCa: records.tsaCa } : {}),
          })
        : await writeExport({
            store: records.store,
            selection: "dates" in selection ? { dates: selection.dates } : { from: selection.from, to: selection.to },
            captures: chosen.captures,
            notes: chosen.notes,
            exportedBy: { name: actor.name, email: actor.email, role: actor.role },
            tsaCa: records.tsaCa,
            file,
          });
      await deps.serially(async () => {
        appendEvent(
          deps.repo,
          exportEvent(
            actor,
            wacz ? `${selection.label} (WACZ)` : selection.label,
            chosen.captures.map((x) => x.entry),
            made,
          ),
        );
      });
      await deps.logged?.();
      const stream = Readable.toWeb(
        createReadStream(file).once("close", () => rmSync(scratch, { recursive: true, force: true })),
      ) as ReadableStream;
      return c.body(stream, 200, {
        "Content-Type": "application/zip",
        "Content-Length": String(statSync(file).size),
        "Content-Disposition": `attachment; filename="records-${selection.label.replace(/[^0-9A-Za-z-]+/g, "_")}.${wacz ? "wacz" : "zip"}"`,
      });
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
  });
  // Anything else under the Records: named as not found, never Decap's files' answer.
  app.get(`${PREFIX}/*`, (c) =>
    sendPage(
      c,
      RefusalPage,
      {
        session: c.get("session"),
        title: "Not in the Records",
        sentence: "The Records have no page at this address: start from the timeline.",
      },
      404,
    ),
  );
  return app;
}

function exportEvent(
  actor: StudioEnv["Variables"]["session"]["actor"],
  label: string,
  captures: CaptureEntry[],
  made: { sha256: string; bytes: number },
) {
  return {
    event: "exported" as const,
    at: new Date().toISOString(),
    entry: { collection: "records", slug: made.sha256.slice(0, 12), branch: "", name: `Records for ${label}` },
    commit: "",
    actor: actor.local
      ? { name: actor.name, email: actor.email, role: "developer" as const }
      : { name: actor.name, email: actor.email, role: actor.role, issuer: actor.issuer, subject: actor.subject },
    export: { selection: label, captures: captures.map((e) => e.name), sha256: made.sha256, bytes: made.bytes },
  };
}
