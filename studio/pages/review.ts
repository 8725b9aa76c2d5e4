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
import type { Session } from "../auth/sessions.ts";
import { editsOf, entryName, STATUS_LABEL, type Entry } from "../workflow/entries.ts";
import { changedPages, documentChange } from "../workflow/changes.ts";
import { buildOf } from "../workflow/builds.ts";
import { eventsOf, readEvents } from "../workflow/log.ts";
import { pageTitles } from "../workflow/titles.ts";
import { decisionPart, type DecisionProblem } from "./decision.ts";
import { eventLine, when } from "./format.ts";
import { html, studioPage, type Markup } from "./layout.ts";
import { markedPages } from "./marks.ts";
import { changedWithContext, DESTINATIONS, diffRows, readableLines, type Row } from "../../lib/words.ts";

export interface ReviewDeps {
  root: string;
  repo: string;
  freshMs: number;
  roster: () => RosterEntry[];
}

export const reviewUrl = (entry: Pick<Entry, "collection" | "slug">) => `/admin/review/${entry.collection}/${entry.slug}`;
const pageFile = (site: string, page: string) => join(site, page === "/" ? "index.html" : `${page.slice(1)}.html`);
const readPage = (site: string, page: string) => {
  try {
    // As built, without the preview's draft mark: the words compared are the page's own.
    return unmarkDraft(readFileSync(pageFile(site, page), "utf8"));
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
  const [changes, titles, mine, live] = await Promise.all([
    changedPages(deps.root, deps.repo, entry.branch),
    pageTitles(deps.root, deps.repo, entry.head),
    buildOf(deps.root, deps.repo, entry.head),
    buildOf(deps.root, deps.repo, "main"),
  ]);
  const edits = editsOf(deps.repo, entry.branch);
  const history = eventsOf(readEvents(deps.repo), entry.branch);
  const unapproved = changes.filter((c) => !c.approvedOnBranch).length;
  const editors = [...new Map(edits.map((e) => [e.email, e.name])).values()];
  const other = view === "desktop" ? "phone" : "desktop";
  const pages = changes.map((change, index) => {
    const title = titles(change.page);
    const rows = changedWithContext(
      diffRows(readableLines(readPage(live.site, change.page)), readableLines(readPage(mine.site, change.page))),
    );
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
      <div class="diff" role="region" aria-labelledby="changed-words-${index}" tabindex="0">${rowsHtml(rows)}</div>
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
      >${editors.length ? html` · edited by ${editors.join(", ")}${edits.length ? html`, last on ${when(edits.at(-1)!.at)}` : ""}` : ""}
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
