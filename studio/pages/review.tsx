/**
 * One entry's review (`/admin/review/<collection>/<slug>`): named as people say it, who edited it and
 * when, its history in the review log, the decision the signed-in person may take, and for each page
 * it changes the page as built from the entry beside the approved page (changed words highlighted, at
 * desktop or phone width), the word-by-word difference in plain words, and the exact text the approval
 * covers one click away.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RosterEntry } from "../../lib/approval/roster.ts";
import { unmarkDraft } from "../../lib/approval/ledger.ts";
import { htmlFileOf } from "../../lib/pages.ts";
import type { Session } from "../auth/sessions.ts";
import { editsOf, entryName, STATUS_LABEL, type Entry } from "../workflow/entries.ts";
import { changedPages, documentChange } from "../workflow/changes.ts";
import { buildOf } from "../workflow/builds.ts";
import { commitOf } from "../workflow/at.ts";
import { eventsOf, readEvents, type ReviewEvent } from "../workflow/log.ts";
import { pageTitles } from "../workflow/titles.ts";
import { scheduleOf, type Schedule } from "../workflow/schedule.ts";
import { DecisionPart, type DecisionProblem, type DecisionView } from "./decision.tsx";
import { whenShort } from "../../lib/dates.ts";
import { eventLine } from "./format.ts";
import { StudioPage } from "./studio-page.tsx";
import { WordRows } from "./word-rows.tsx";
import { markedPages } from "./marks.ts";
import { changedWithContext, diffRows, pageParts, readableLines, type Line } from "../../lib/words.ts";

export interface ReviewDeps {
  root: string;
  repo: string;
  freshMs: number;
  roster: () => RosterEntry[];
  /** The clock (tests move it). */
  now?: () => Date;
  /** Server mode: approvals may carry "Publish at" in the firm's zone. */
  scheduling?: { timeZone: string };
}

export const reviewUrl = (entry: Pick<Entry, "collection" | "slug">) => `/admin/review/${entry.collection}/${entry.slug}`;
/** A built page as visitors get it (the preview's draft mark taken off); "" when the build has no such page. */
export const readPage = (site: string, page: string) => {
  try {
    // As built, without the preview's draft mark: the words compared are the page's own.
    return unmarkDraft(readFileSync(join(site, htmlFileOf(page)), "utf8"));
  } catch {
    return "";
  }
};

/** What the review calls the parts every page shares (everything outside a page's `<main>`). */
const SHARED_PARTS = "the header, the cookie banner, the footer and the skip link";

type SharedPart =
  | { same: true; as?: { page: string; title: string } }
  | { same: false; rows: ReturnType<typeof changedWithContext>; against?: { page: string; title: string } };

/**
 * The changed words of one page, its own first (decision 0044): the head lines and what is inside its
 * `<main>`; the parts every page shares are listed only where they differ from the approved ones. A new
 * page's shared parts are compared with the approved pages on main, those of a document first, and
 * named by the page whose shared parts they equal word for word; a page that cannot be cut in two is
 * listed whole, as the gate reads it.
 */
function pageWords(
  approvedHtml: string,
  entryHtml: string,
  approvedPages: () => Array<{ page: string; title: string; html: string }>,
): { own: ReturnType<typeof changedWithContext>; shared?: SharedPart } {
  const whole = () => ({ own: changedWithContext(diffRows(readableLines(approvedHtml), readableLines(entryHtml))) });
  const after = pageParts(entryHtml);
  if (!after) return whole();
  const same = (a: readonly Line[], b: readonly Line[]) =>
    a.length === b.length && a.every((line, i) => line.where === b[i]!.where && line.text === b[i]!.text);
  if (approvedHtml) {
    const before = pageParts(approvedHtml);
    if (!before) return whole();
    const own = changedWithContext(diffRows(before.own, after.own));
    if (same(before.shared, after.shared)) return { own, shared: { same: true } };
    return { own, shared: { same: false, rows: changedWithContext(diffRows(before.shared, after.shared)) } };
  }
  const own = changedWithContext(diffRows([], after.own));
  let closest: { page: string; title: string; rows: ReturnType<typeof changedWithContext>; changed: number } | undefined;
  for (const { page, title, html: approved } of approvedPages()) {
    const shared = pageParts(approved)?.shared;
    if (!shared) continue;
    if (same(shared, after.shared)) return { own, shared: { same: true, as: { page, title } } };
    const rows = diffRows(shared, after.shared);
    const changed = rows.filter((row) => row.changed).length;
    if (!closest || changed < closest.changed) closest = { page, title, rows: changedWithContext(rows), changed };
  }
  if (!closest) return { own, shared: { same: false, rows: changedWithContext(diffRows([], after.shared)) } };
  return { own, shared: { same: false, rows: closest.rows, against: { page: closest.page, title: closest.title } } };
}

function SharedPart({ shared, index }: { shared: SharedPart | undefined; index: number }) {
  if (!shared) return null;
  if (shared.same)
    return (
      <p data-shared-parts="">
        {shared.as
          ? `Not listed: ${SHARED_PARTS}, the parts every page of the site shares, already approved. On this page they read word for word as on ${shared.as.title} (${shared.as.page}).`
          : `Not listed: ${SHARED_PARTS}, the parts every page of the site shares. They are unchanged on this page.`}
      </p>
    );
  return (
    <>
      <h4 id={`shared-words-${index}`}>
        {shared.against
          ? `The parts every page shares (${SHARED_PARTS}): they differ from those approved on ${shared.against.title} (${shared.against.page})`
          : `The parts every page shares (${SHARED_PARTS}), changed on this page`}
      </h4>
      <div className="diff" role="region" aria-labelledby={`shared-words-${index}`} tabIndex={0} data-shared-parts="">
        <WordRows rows={shared.rows} />
      </div>
    </>
  );
}

/** The marked HTML of one page for the review's frames. */
export async function framePage(deps: ReviewDeps, entry: Entry, page: string, version: "approved" | "entry"): Promise<string | undefined> {
  const [mine, live] = await Promise.all([buildOf(deps.root, deps.repo, entry.head), buildOf(deps.root, deps.repo, "main")]);
  const [entryHtml, approvedHtml] = [readPage(mine.site, page), readPage(live.site, page)];
  if (!(version === "entry" ? entryHtml : approvedHtml)) return undefined;
  const marked = markedPages(approvedHtml || "<!doctype html><html><head></head><body></body></html>", entryHtml);
  return version === "entry" ? marked.entry : marked.approved;
}

/** What an entry's review shows, read from git, the review log and the two builds. */
export interface ReviewView {
  entry: Entry;
  session: Session;
  name: string;
  view: "desktop" | "phone";
  notice?: { ok: boolean; text: string };
  decision: DecisionView;
  /** A document added or withdrawn by the entry, in words; null when it changes words only. */
  change: string | null;
  status: string;
  editors: string[];
  lastEdit: string | undefined;
  history: ReviewEvent[];
  pages: ChangedPage[];
  /** The tree of main the entry is compared with. */
  tree: string;
}

interface ChangedPage {
  change: Awaited<ReturnType<typeof changedPages>>[number];
  title: string;
  words: ReturnType<typeof pageWords>;
}

export async function reviewView(
  deps: ReviewDeps,
  entry: Entry,
  session: Session,
  view: "desktop" | "phone",
  notice?: { ok: boolean; text: string },
  problem?: DecisionProblem,
): Promise<ReviewView> {
  // main by its commit, read once: every part of the review compares with the same main, and what is read of it is kept (at.ts).
  const main = commitOf(deps.repo, "main");
  const [changes, titles, liveTitles, mine, live] = await Promise.all([
    changedPages(deps.root, deps.repo, entry.branch, main),
    pageTitles(deps.root, deps.repo, entry.head),
    pageTitles(deps.root, deps.repo, main),
    buildOf(deps.root, deps.repo, entry.head),
    buildOf(deps.root, deps.repo, main),
  ]);
  const edits = editsOf(deps.repo, entry.branch);
  // The approved pages a new page's shared parts are compared with: documents first (a new page is one), the landing page and 404 last.
  const approvedPages = () =>
    Object.keys(live.pages)
      .sort((a, b) => Number(a === "/" || a === "/404") - Number(b === "/" || b === "/404") || a.localeCompare(b))
      .map((page) => ({ page, title: liveTitles(page), html: readPage(live.site, page) }));
  return {
    entry,
    session,
    name: entryName(deps.repo, entry),
    view,
    notice,
    decision: {
      entry,
      session,
      authors: [...new Set(edits.map((e) => e.email))],
      pages: changes.filter((c) => !c.approvedOnBranch).length,
      roster: deps.roster(),
      freshMs: deps.freshMs,
      reviewUrl: reviewUrl(entry),
      problem,
      now: deps.now?.() ?? new Date(),
      ...(deps.scheduling ? { scheduling: { timeZone: deps.scheduling.timeZone } } : {}),
      ...withSchedule(deps.scheduling ? scheduleOf(deps.repo, entry.branch) : undefined),
    },
    change: documentChange(deps.repo, entry, main),
    status: STATUS_LABEL[entry.status],
    editors: [...new Map(edits.map((e) => [e.email, e.name])).values()],
    lastEdit: edits.length ? whenShort(edits.at(-1)!.at) : undefined,
    history: eventsOf(readEvents(deps.repo), entry.branch),
    pages: changes.map((change) => ({
      change,
      title: titles(change.page),
      words: pageWords(readPage(live.site, change.page), readPage(mine.site, change.page), approvedPages),
    })),
    tree: live.tree,
  };
}

const withSchedule = (schedule: Schedule | undefined) => (schedule ? { schedule } : {});

/** A picture of the page, scaled to its box (whole lines at any width); Tab passes it by (decision 0029). */
function Frame({
  url,
  page,
  title,
  version,
  heading,
}: {
  url: string;
  page: string;
  title: string;
  version: "approved" | "entry";
  heading: string;
}) {
  return (
    <div className="frame">
      <h3>{heading}</h3>
      <div className="frame-box">
        <iframe
          sandbox=""
          tabIndex={-1}
          title={`${title}, ${version === "approved" ? "approved" : "with this entry's changes"}`}
          src={`${url}/frame?page=${encodeURIComponent(page)}&version=${version}#studio-change`}
        ></iframe>
      </div>
    </div>
  );
}

function PageChange({
  url,
  view,
  page: { change, title, words },
  index,
}: {
  url: string;
  view: "desktop" | "phone";
  page: ChangedPage;
  index: number;
}) {
  const other = view === "desktop" ? "phone" : "desktop";
  return (
    <section data-page={change.page}>
      <h2>
        {title}{" "}
        <small>{`(${change.reason === "new" ? "a new page" : "text changed"}${change.approvedOnBranch ? ", approved" : ""})`}</small>
      </h2>
      <p>
        Seen at {view} width. <a href={`${url}?view=${other}`}>Show at {other} width</a>
      </p>
      <div className={`frames ${view}`}>
        {change.reason === "new" ? (
          <div className="frame">
            <h3>Approved version</h3>
            <p>This page is new: there is no approved version.</p>
          </div>
        ) : (
          <Frame url={url} page={change.page} title={title} version="approved" heading="Approved, on the site now" />
        )}
        <Frame url={url} page={change.page} title={title} version="entry" heading="With this entry's changes" />
      </div>
      <h3 id={`changed-words-${index}`}>The changed words</h3>
      <div className="diff" role="region" aria-labelledby={`changed-words-${index}`} tabIndex={0} data-own-words="">
        <WordRows rows={words.own} />
      </div>
      <SharedPart shared={words.shared} index={index} />
      <details>
        <summary>The exact text the approval covers (SHA-256 {change.sha256.slice(0, 12)}…)</summary>
        <pre>{change.text}</pre>
      </details>
    </section>
  );
}

/**
 * One entry's review: named as people say it, who edited it and when, its history, the decision the
 * signed-in person may take, and each page it changes.
 */
export function ReviewPage(v: ReviewView) {
  const url = reviewUrl(v.entry);
  return (
    <StudioPage title={v.name} session={v.session} notice={v.notice}>
      <h1>{v.name}</h1>
      {v.change ? (
        <p data-entry-change="">
          <strong>{v.change}</strong>
        </p>
      ) : null}
      <p className="meta">
        Status: <strong>{v.status}</strong>
        {v.editors.length ? ` · edited by ${v.editors.join(", ")}${v.lastEdit ? `, last on ${v.lastEdit}` : ""}` : null}
      </p>
      <section aria-labelledby="decision">
        <h2 id="decision">Decision</h2>
        <DecisionPart {...v.decision} />
      </section>
      {v.history.length ? (
        <section aria-labelledby="history">
          <h2 id="history">History</h2>
          <ol className="history">
            {v.history.map((e, i) => (
              <li key={i}>
                {eventLine(e)}
                {e.comment ? <blockquote>{e.comment}</blockquote> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {v.pages.length ? (
        v.pages.map((page, index) => <PageChange key={page.change.page} url={url} view={v.view} page={page} index={index} />)
      ) : (
        <section>
          <p>This entry changes no page's text.</p>
        </section>
      )}
      <details>
        <summary>Technical details</summary>
        <p>
          Branch <code>{v.entry.branch}</code> at <code>{v.entry.head}</code>; compared with main at <code>{v.tree.slice(0, 12)}</code>{" "}
          (tree).
        </p>
      </details>
    </StudioPage>
  );
}
