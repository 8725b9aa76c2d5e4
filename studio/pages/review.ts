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
import { eventsOf, readEvents } from "../workflow/log.ts";
import { pageTitles } from "../workflow/titles.ts";
import { decisionPart, type DecisionProblem } from "./decision.ts";
import { whenShort } from "../../lib/dates.ts";
import { eventLine } from "./format.ts";
import { html, studioPage, type Markup } from "./layout.ts";
import { markedPages } from "./marks.ts";
import { changedWithContext, DESTINATIONS, diffRows, pageParts, readableLines, type Line, type Row } from "../../lib/words.ts";

export interface ReviewDeps {
  root: string;
  repo: string;
  freshMs: number;
  roster: () => RosterEntry[];
}

export const reviewUrl = (entry: Pick<Entry, "collection" | "slug">) => `/admin/review/${entry.collection}/${entry.slug}`;
const readPage = (site: string, page: string) => {
  try {
    // As built, without the preview's draft mark: the words compared are the page's own.
    return unmarkDraft(readFileSync(join(site, htmlFileOf(page)), "utf8"));
  } catch {
    return "";
  }
};

export function rowsHtml(rows: ReturnType<typeof changedWithContext>): Markup {
  return html`${rows.map((row) =>
    "skipped" in row
      ? html`<p class="where">… ${row.skipped} unchanged line${row.skipped === 1 ? "" : "s"} …</p>`
      : html`<p${(row as Row).changed ? html` data-changed` : ""}>${row.where ? html`<span class="where">${row.where}: </span>` : ""}${(
          row as Row
        ).parts.map((part, i, parts) => {
          // A changed destination reads "FINRA: https://www.finra.org → https://…": the old address, then the new.
          const arrow = part.change === "added" && parts[i - 1]?.change === "removed" && DESTINATIONS.has(row.where ?? "");
          return html`${arrow ? " → " : part.space ? " " : ""}${part.change === "added" ? html`<ins>${part.text}</ins>` : part.change === "removed" ? html`<del>${part.text}</del>` : part.text}`;
        })}</p>`,
  )}`;
}

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
  const same = (a: Line[], b: Line[]) =>
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

function sharedPart(shared: SharedPart | undefined, index: number): Markup | string {
  if (!shared) return "";
  if (shared.same)
    return html`<p data-shared-parts>
      ${
        shared.as
          ? html`Not listed: ${SHARED_PARTS}, the parts every page of the site shares, already approved. On this page they read word for
            word as on ${shared.as.title} (${shared.as.page}).`
          : html`Not listed: ${SHARED_PARTS}, the parts every page of the site shares. They are unchanged on this page.`
      }
    </p>`;
  return html`<h4 id="shared-words-${index}">
      ${
        shared.against
          ? html`The parts every page shares (${SHARED_PARTS}): they differ from those approved on ${shared.against.title}
            (${shared.against.page})`
          : html`The parts every page shares (${SHARED_PARTS}), changed on this page`
      }
    </h4>
    <div class="diff" role="region" aria-labelledby="shared-words-${index}" tabindex="0" data-shared-parts>${rowsHtml(shared.rows)}</div>`;
}

/** The marked HTML of one page for the review's frames. */
export async function framePage(deps: ReviewDeps, entry: Entry, page: string, version: "approved" | "entry"): Promise<string | undefined> {
  const [mine, live] = await Promise.all([buildOf(deps.root, deps.repo, entry.head), buildOf(deps.root, deps.repo, "main")]);
  const [entryHtml, approvedHtml] = [readPage(mine.site, page), readPage(live.site, page)];
  if (!(version === "entry" ? entryHtml : approvedHtml)) return undefined;
  const marked = markedPages(approvedHtml || "<!doctype html><html><head></head><body></body></html>", entryHtml);
  return version === "entry" ? marked.entry : marked.approved;
}

export async function reviewPage(
  deps: ReviewDeps,
  entry: Entry,
  session: Session,
  view: "desktop" | "phone",
  notice?: { ok: boolean; text: string },
  problem?: DecisionProblem,
) {
  const name = entryName(deps.repo, entry);
  const url = reviewUrl(entry);
  const [changes, titles, liveTitles, mine, live] = await Promise.all([
    changedPages(deps.root, deps.repo, entry.branch),
    pageTitles(deps.root, deps.repo, entry.head),
    pageTitles(deps.root, deps.repo, "main"),
    buildOf(deps.root, deps.repo, entry.head),
    buildOf(deps.root, deps.repo, "main"),
  ]);
  const edits = editsOf(deps.repo, entry.branch);
  const history = eventsOf(readEvents(deps.repo), entry.branch);
  const unapproved = changes.filter((c) => !c.approvedOnBranch).length;
  const editors = [...new Map(edits.map((e) => [e.email, e.name])).values()];
  const other = view === "desktop" ? "phone" : "desktop";
  // The approved pages a new page's shared parts are compared with: documents first (a new page is one), the landing page and 404 last.
  const approvedPages = () =>
    Object.keys(live.pages)
      .sort((a, b) => Number(a === "/" || a === "/404") - Number(b === "/" || b === "/404") || a.localeCompare(b))
      .map((page) => ({ page, title: liveTitles(page), html: readPage(live.site, page) }));
  const pages = changes.map((change, index) => {
    const title = titles(change.page);
    const words = pageWords(readPage(live.site, change.page), readPage(mine.site, change.page), approvedPages);
    // A picture of the page, scaled to its box (whole lines at any width); Tab passes it by (decision 0029).
    const frame = (version: "approved" | "entry", heading: string) =>
      html`<div class="frame">
        <h3>${heading}</h3>
        <div class="frame-box">
          <iframe
            sandbox
            tabindex="-1"
            title="${title}, ${version === "approved" ? "approved" : "with this entry's changes"}"
            src="${url}/frame?page=${encodeURIComponent(change.page)}&amp;version=${version}#studio-change"
          ></iframe>
        </div>
      </div>`;
    return html`<section data-page="${change.page}">
      <h2>
        ${title} <small>(${change.reason === "new" ? "a new page" : "text changed"}${change.approvedOnBranch ? ", approved" : ""})</small>
      </h2>
      <p>Seen at ${view} width. <a href="${url}?view=${other}">Show at ${other} width</a></p>
      <div class="frames ${view}">
        ${
          change.reason === "new"
            ? html`<div class="frame">
                <h3>Approved version</h3>
                <p>This page is new: there is no approved version.</p>
              </div>`
            : frame("approved", "Approved, on the site now")
        }${frame("entry", "With this entry's changes")}
      </div>
      <h3 id="changed-words-${index}">The changed words</h3>
      <div class="diff" role="region" aria-labelledby="changed-words-${index}" tabindex="0" data-own-words>${rowsHtml(words.own)}</div>
      ${sharedPart(words.shared, index)}
      <details>
        <summary>The exact text the approval covers (SHA-256 ${change.sha256.slice(0, 12)}…)</summary>
        <pre>${change.text}</pre>
      </details>
    </section>`;
  });
  const change = documentChange(deps.repo, entry);
  const body = html`<h1>${name}</h1>
    ${change ? html`<p data-entry-change><strong>${change}</strong></p>` : ""}
    <p class="meta">
      Status:
      <strong>${STATUS_LABEL[entry.status]}</strong
      >${editors.length ? html` · edited by ${editors.join(", ")}${edits.length ? html`, last on ${whenShort(edits.at(-1)!.at)}` : ""}` : ""}
    </p>
    <section aria-labelledby="decision">
      <h2 id="decision">Decision</h2>
      ${decisionPart({
        entry,
        session,
        authors: [...new Set(edits.map((e) => e.email))],
        pages: unapproved,
        roster: deps.roster(),
        freshMs: deps.freshMs,
        reviewUrl: url,
        problem,
      })}
    </section>
    ${
      history.length
        ? html`<section aria-labelledby="history">
            <h2 id="history">History</h2>
            <ol class="history">
              ${history.map((e) => html`<li>${eventLine(e)}${e.comment ? html`<blockquote>${e.comment}</blockquote>` : ""}</li>`)}
            </ol>
          </section>`
        : ""
    }
    ${pages.length ? pages : html`<section><p>This entry changes no page's text.</p></section>`}
    <details>
      <summary>Technical details</summary>
      <p>
        Branch <code>${entry.branch}</code> at <code>${entry.head}</code>; compared with main at
        <code>${live.tree.slice(0, 12)}</code> (tree).
      </p>
    </details>`;
  return studioPage(name, body, { session, notice });
}
