/**
 * The studio's own pages and the admin module's questions: Approvals, an entry's review and its
 * decision (every form answers with a redirect, so a reload never repeats an action), the review's
 * page frames (sandboxed: no script runs in them), the check before Publish, and an entry's place in
 * the review for the admin page.
 */
import { Hono, type Context } from "hono";
import { StudioRefusal } from "../git.ts";
import type { StudioEnv } from "../auth/routes.ts";
import { checkFormToken } from "../http/guards.ts";
import {
  decide,
  DECISIONS,
  FieldRefusal,
  reschedule,
  reviewerFor,
  type Decision,
  type DecisionContext,
  type DecisionForm,
  type ScheduleAction,
} from "../workflow/decide.ts";
import { byUrgency } from "../../lib/approval/review-report.ts";
import { dayIn, pageReviews } from "../../lib/approval/reviews.ts";
import { git } from "../git.ts";
import { ledgerAt } from "../workflow/changes.ts";
import { commitOf } from "../workflow/at.ts";
import { entryFile } from "../workflow/entries.ts";
import { recordPageReview } from "../workflow/page-review.ts";
import { factsOf } from "../../lib/approval/facts.ts";
import { site } from "../../src/config/site.ts";
import { policyAt, reviewedPagesAt } from "../workflow/review-policy.ts";
import { PageReviewPage, type PageReviewProblem } from "./page-review.tsx";
import { type ReviewsDue } from "./approvals.tsx";
import { entryName, findEntry, type Entry } from "../workflow/entries.ts";
import { eventsOf, readEvents } from "../workflow/log.ts";
import { publishRefusal } from "../workflow/publish.ts";
import { scheduledLine, scheduleOf } from "../workflow/schedule.ts";
import type { HostSync } from "../workflow/host.ts";
import { ApprovalsPage } from "./approvals.tsx";
import { PreparingPage } from "./preparing.tsx";
import { sendPage } from "./render.ts";
import { buildOf } from "../workflow/builds.ts";
import { eventLine } from "./format.ts";
import { picturePage } from "./marks.ts";
import { framePage, readPage, ReviewPage, reviewUrl, reviewView, type ReviewDeps } from "./review.tsx";
import type { DecisionProblem } from "./decision.tsx";
import { DOCUMENT_COLLECTIONS } from "../../src/content/schemas/files.ts";

type PageReviewNotice = { ok: boolean; text: string };

/** How long an entry's review waits for its builds before it answers with a page that asks again. */
const REVIEW_WAIT_MS = 5000;

/** The frames show built pages: no script, no request but the page itself, framed by the studio only. */
export const FRAME_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";

export interface PageRouteDeps extends ReviewDeps {
  /** Runs a change in the studio's one-at-a-time turn (shared with the git API). */
  serially<T>(task: () => Promise<T>): Promise<T>;
  /** After an event is logged (server mode pushes the log and the board to the firm's git host). */
  logged?(): Promise<void>;
  /** Server mode: records the board for the host (in the turn), says what the host does not have yet, and publishes a page's review. */
  hostSync?: HostSync;
  /** The clock of the reviews' due dates and of the schedules (tests move it). */
  now?: () => Date;
  /** Server mode: the firm's zone of "Publish at" (STUDIO_TIME_ZONE), and the timer that reads the schedules again after a change. */
  scheduling?: { timeZone: string; changed(): void };
}

/** A decision's form as posted: the approver typed (loopback), the comment, and a moment to publish at. */
const decisionFields = (form: Record<string, unknown>) =>
  ({
    head: String(form.head ?? ""),
    comment: String(form.comment ?? ""),
    name: String(form.name ?? ""),
    registration: String(form.registration ?? ""),
    publishAt: String(form.publishAt ?? ""),
    offset: String(form.offset ?? ""),
    holdIfLate: form.holdIfLate === "1",
  }) satisfies Required<DecisionForm>;

/** Every page's review on `main` as the policy there says, on the firm's today; throws naming the policy's file and line. */
function reviewsOnMain(deps: PageRouteDeps) {
  // main's commit now: what is read of it is kept (at.ts), so the board reads it once per publish.
  const main = commitOf(deps.repo, "main");
  const policy = policyAt(deps.repo, main, deps.roster());
  const today = dayIn(deps.now?.() ?? new Date(), policy.timeZone);
  return pageReviews(reviewedPagesAt(deps.repo, main), ledgerAt(deps.repo, main), policy, today, factsOf(site));
}

/** "Reviews due" on the board: overdue and due-soon pages, most urgent first; the policy's problem instead when it does not parse. */
function reviewsDue(deps: PageRouteDeps): ReviewsDue {
  try {
    return { due: byUrgency(reviewsOnMain(deps)).filter((review) => review.status !== "ok") };
  } catch (error) {
    return { due: [], problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Where a page's words are edited in the admin: its document's entry, or the landing page's files. */
function editUrlOf(page: string, repo: string): string | undefined {
  if (page === "/") return "/admin/#/collections/landing";
  const slug = page.slice(1);
  for (const collection of Object.keys(DOCUMENT_COLLECTIONS)) {
    const file = entryFile(collection, slug);
    if (!file) continue;
    try {
      git(repo, "cat-file", "-e", `main:${file}`);
      return `/admin/#/collections/${collection}/entries/${slug}`;
    } catch {
      // Not in this collection.
    }
  }
  return undefined;
}

export function pageRoutes(deps: PageRouteDeps) {
  const app = new Hono<StudioEnv>();
  const decisionContext = (session: StudioEnv["Variables"]["session"]): DecisionContext => ({
    root: deps.root,
    repo: deps.repo,
    session,
    freshMs: deps.freshMs,
    roster: deps.roster,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.scheduling ? { scheduling: { timeZone: deps.scheduling.timeZone } } : {}),
  });
  const entryOf = (c: { req: { param(name: string): string | undefined } }) =>
    findEntry(deps.repo, c.req.param("collection") ?? "", c.req.param("slug") ?? "");
  const takeFlash = (c: { get(key: "session"): StudioEnv["Variables"]["session"] }) => {
    const session = c.get("session");
    const flash = session.flash;
    delete session.flash;
    return flash;
  };
  const gone = "That entry is no longer in the workflow: it was published or withdrawn.";
  /**
   * A refused decision or schedule: nothing changed; the review is drawn again saying why (a reload would
   * only be refused again), at the field when the refusal is about one, with what was typed.
   */
  const refusedReview = async (
    c: Context<StudioEnv>,
    entry: Entry,
    error: StudioRefusal,
    form: DecisionProblem["form"],
    typed: DecisionProblem["typed"],
  ) => {
    const now = findEntry(deps.repo, entry.collection, entry.slug) ?? entry;
    const problem = error instanceof FieldRefusal ? { form, field: error.field, text: error.message, typed } : undefined;
    const notice = problem ? undefined : { ok: false, text: error.message };
    return sendPage(c, ReviewPage, await reviewView(deps, now, c.get("session"), "desktop", notice, problem), 403);
  };

  app.get("/admin/approvals", (c) =>
    sendPage(c, ApprovalsPage, {
      repo: deps.repo,
      session: c.get("session"),
      notice: takeFlash(c),
      notOnHost: deps.hostSync?.notOnHost(),
      reviews: reviewsDue(deps),
    }),
  );

  /** A page's review as drawn for `session`, with the last post's notice or refusal; undefined for a page not on main. */
  const pageReviewOf = (
    page: string,
    session: StudioEnv["Variables"]["session"],
    notice?: PageReviewNotice,
    problem?: PageReviewProblem,
  ) => {
    const review = reviewsOnMain(deps).find((r) => r.page === page);
    if (!review) return undefined;
    return {
      session,
      review,
      head: git(deps.repo, "rev-parse", "main"),
      editUrl: editUrlOf(page, deps.repo),
      roster: deps.roster(),
      freshMs: deps.freshMs,
      now: deps.now?.() ?? new Date(),
      notice,
      problem,
    };
  };
  const notAPage = "That is not a page of the site as published: choose one under Reviews due.";

  app.get("/admin/pages/review", (c) => {
    let view;
    try {
      view = pageReviewOf(c.req.query("page") ?? "", c.get("session"), takeFlash(c));
    } catch (error) {
      c.get("session").flash = { ok: false, text: error instanceof Error ? error.message : String(error) };
      return c.redirect("/admin/approvals", 303);
    }
    if (!view) {
      c.get("session").flash = { ok: false, text: notAPage };
      return c.redirect("/admin/approvals", 303);
    }
    return sendPage(c, PageReviewPage, view);
  });

  app.post("/admin/pages/review", async (c) => {
    const session = c.get("session");
    const form = await c.req.parseBody();
    if (!checkFormToken(session.csrf, form._csrf))
      return c.text("This form has expired or did not come from the studio: reload the page and try again.\n", 403);
    const page = String(form.page ?? "");
    const typed = {
      name: String(form.name ?? ""),
      registration: String(form.registration ?? ""),
      comment: String(form.comment ?? "").trim(),
    };
    const context = decisionContext(session);
    try {
      if (typed.comment.length > 4000) throw new FieldRefusal("The comment is too long: keep it under 4,000 characters.", "comment");
      const who = reviewerFor(context, typed);
      session.flash = {
        ok: true,
        text: await deps.serially(() =>
          recordPageReview(
            deps.root,
            deps.repo,
            {
              page,
              head: String(form.head ?? ""),
              approver: who.approver,
              actor: who.logged,
              comment: typed.comment || undefined,
              auth: who.auth,
            },
            deps.hostSync,
            deps.now?.(),
          ),
        ),
      };
    } catch (error) {
      if (!(error instanceof StudioRefusal)) throw error;
      // Refused: nothing changed; the page says why, at the field when it is about one.
      const problem =
        error instanceof FieldRefusal && error.field !== "publishAt" ? { field: error.field, text: error.message, typed } : undefined;
      // The page drawn again with the refusal; where it cannot be (not a page, a policy that does not parse), the sentence alone.
      let view: ReturnType<typeof pageReviewOf>;
      try {
        view = pageReviewOf(page, session, problem ? undefined : { ok: false, text: error.message }, problem);
      } catch {
        view = undefined;
      }
      if (!view) return c.text(`${error.message}\n`, 403);
      return sendPage(c, PageReviewPage, view, 403);
    }
    return c.redirect("/admin/approvals", 303);
  });

  app.get("/admin/pages/frame", async (c) => {
    const page = c.req.query("page") ?? "";
    const html = ledgerAt(deps.repo, "main").pages[page] ? readPage((await buildOf(deps.root, deps.repo, "main")).site, page) : "";
    if (!html) return c.text("No such page on the site.\n", 404);
    // The same picture as an entry's review frames (decision 0029): no script, nothing that takes focus or moves.
    return c.html(picturePage(html), 200, { "Content-Security-Policy": FRAME_CSP });
  });

  app.get("/admin/review/:collection/:slug", async (c) => {
    const entry = entryOf(c);
    if (!entry) {
      c.get("session").flash = { ok: false, text: gone };
      return c.redirect("/admin/approvals", 303);
    }
    const view = c.req.query("view") === "phone" ? "phone" : "desktop";
    // The pages as built from the entry and from main: made ahead (app.ts), else now. The answer waits up to
    // 5 s for them (a build takes about 2 s, decision 0054), so the review is drawn the moment they are;
    // then a short page, which asks again a second later (and waits again).
    const builds = Promise.all([buildOf(deps.root, deps.repo, entry.head), buildOf(deps.root, deps.repo, "main")]);
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      builds.then(() => true),
      new Promise<false>((done) => (timer = setTimeout(done, REVIEW_WAIT_MS, false))),
    ])
      .catch((error: Error) => error)
      .finally(() => clearTimeout(timer));
    // A refusal (the disk is full) is one sentence; a build that failed shows its output.
    const preparing = { session: c.get("session"), name: entryName(deps.repo, entry) };
    if (ready instanceof StudioRefusal) return sendPage(c, PreparingPage, { ...preparing, failure: ready }, 503);
    if (ready instanceof Error) return sendPage(c, PreparingPage, { ...preparing, failure: ready }, 500);
    if (!ready) return sendPage(c, PreparingPage, preparing);
    return sendPage(c, ReviewPage, await reviewView(deps, entry, c.get("session"), view, takeFlash(c)));
  });

  app.post("/admin/review/:collection/:slug", async (c) => {
    const session = c.get("session");
    const form = await c.req.parseBody();
    if (!checkFormToken(session.csrf, form._csrf))
      return c.text("This form has expired or did not come from the studio: reload the page and try again.\n", 403);
    const decision = String(form.decision ?? "") as Decision;
    if (!(decision in DECISIONS)) return c.text("Choose approve, request changes or reject.\n", 400);
    const entry = entryOf(c);
    if (!entry) {
      session.flash = { ok: false, text: gone };
      return c.redirect("/admin/approvals", 303);
    }
    const context = decisionContext(session);
    const fields = decisionFields(form);
    try {
      session.flash = {
        ok: true,
        text: await deps.serially(async () => {
          const done = await decide(context, entry, decision, fields);
          deps.hostSync?.record();
          return done;
        }),
      };
      deps.scheduling?.changed();
      await deps.logged?.();
    } catch (error) {
      if (!(error instanceof StudioRefusal)) throw error;
      return refusedReview(c, entry, error, decision === "approve" ? "approve" : "changes", fields);
    }
    return c.redirect(reviewUrl(entry), 303);
  });

  // A principal moves or cancels a Ready entry's schedule; anyone else is refused with 403 (decide.ts).
  app.post("/admin/review/:collection/:slug/schedule", async (c) => {
    const session = c.get("session");
    const form = await c.req.parseBody();
    if (!checkFormToken(session.csrf, form._csrf))
      return c.text("This form has expired or did not come from the studio: reload the page and try again.\n", 403);
    const action = String(form.action ?? "");
    if (action !== "move" && action !== "cancel") return c.text("Choose move or cancel.\n", 400);
    const entry = entryOf(c);
    if (!entry) {
      session.flash = { ok: false, text: gone };
      return c.redirect("/admin/approvals", 303);
    }
    const fields = decisionFields(form);
    try {
      session.flash = {
        ok: true,
        text: await deps.serially(async () => reschedule(decisionContext(session), entry, action as ScheduleAction, fields)),
      };
      deps.scheduling?.changed();
      await deps.logged?.();
    } catch (error) {
      if (!(error instanceof StudioRefusal)) throw error;
      return refusedReview(c, entry, error, "schedule", fields);
    }
    return c.redirect(reviewUrl(entry), 303);
  });

  app.get("/admin/review/:collection/:slug/frame", async (c) => {
    const entry = entryOf(c);
    const version = c.req.query("version") === "approved" ? "approved" : "entry";
    const page = entry && (await framePage(deps, entry, c.req.query("page") ?? "/", version));
    if (!page) return c.text("No such page in this entry.\n", 404);
    return c.html(page, 200, { "Content-Security-Policy": FRAME_CSP });
  });

  // Asked by the admin page before Decap sends a publish: the git API's own rule.
  app.get("/admin/approvals/check", async (c) => {
    const entry = findEntry(deps.repo, c.req.query("collection") ?? "", c.req.query("slug") ?? "");
    return c.json({ refusal: entry ? await publishRefusal(deps.root, deps.repo, entry.branch) : "This entry has no draft to publish." });
  });

  app.get("/admin/entry-state", (c) => {
    const entry = findEntry(deps.repo, c.req.query("collection") ?? "", c.req.query("slug") ?? "");
    return c.json(entry ? entryState(deps.repo, entry) : null);
  });
  return app;
}

/** Where an entry stands, for the admin page: its name, status, review and the latest step of its review. */
export function entryState(repo: string, entry: Entry) {
  const latest = eventsOf(readEvents(repo), entry.branch).at(-1);
  const decision = latest && (latest.event === "changes_requested" || latest.event === "rejected");
  const schedule = entry.status === "pending_publish" ? scheduleOf(repo, entry.branch) : undefined;
  return {
    name: entryName(repo, entry),
    status: entry.status,
    review: reviewUrl(entry),
    latest: latest && { text: eventLine(latest), comment: latest.comment, kind: decision ? "decision" : "step" },
    ...(schedule
      ? {
          schedule: `${scheduledLine(schedule)}. Saving a change clears the schedule and the approval: the entry goes back through review.`,
        }
      : {}),
  };
}
