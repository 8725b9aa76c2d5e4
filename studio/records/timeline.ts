/**
 * Records (`/admin/records`): every capture of the public site, newest first, with its time of record
 * (the TSA's where a token vouches for it), its kind, whether its files are intact as stored, the commit
 * its site was built from, and the pages whose words changed since the capture before, each with who
 * edited and who approved them. The "as of" form opens the capture in force at a moment; the export is
 * one link away.
 */
import { changedSince, type CaptureEntry } from "../../lib/records/catalog.ts";
import type { Session } from "../auth/sessions.ts";
import { html, studioPage, type Markup } from "../pages/layout.ts";
import { approverLine, commitLine, dateWritten, editorsLine, timeSource } from "./format.ts";
import { KIND_WORDS } from "../../lib/records/wording.ts";

export const PAGE_SIZE = 100;
export const captureUrl = (name: string) => `/admin/records/capture/${name}`;

/** The verification of a capture in one line, or its problems, each naming a file. */
export function stateOf(entry: CaptureEntry): Markup {
  if (!entry.complete)
    return html`<p class="check bad" data-state="incomplete"><strong>✗ Incomplete:</strong> ${entry.missing ?? "it has no manifest."}</p>`;
  if (!entry.ok)
    return html`<div class="check bad" data-state="altered">
      <p><strong>✗ Not intact.</strong> What differs from the record:</p>
      <ul>
        ${entry.problems.slice(0, 8).map((p) => html`<li>${p}</li>`)}
        ${entry.problems.length > 8 ? html`<li>and ${entry.problems.length - 8} more</li>` : ""}
      </ul>
    </div>`;
  return html`<p class="check good" data-state="intact">
    <strong>✓ Intact:</strong> every file hashes as
    recorded${entry.timeSource === "tsa" ? "; its time is certified" : ""}${
      entry.certification && "certifiedAt" in entry.certification ? "; certified later by the Time Stamp Authority" : ""
    }.
  </p>`;
}

/** Pages whose live text was not the approved text, by name. */
export const driftOf = (entry: CaptureEntry) => entry.pages.filter((p) => p.approvedSha256 !== p.textSha256);

/** What changed since the capture before: each page with who edited and approved its words. */
export function changesOf(entry: CaptureEntry, previous: CaptureEntry | undefined): Markup {
  if (!entry.complete) return html``;
  const changed = changedSince(entry, previous);
  if (previous && changed.length === 0) return html`<p>No page's words changed since the capture before.</p>`;
  return html`<p>${previous ? "Words changed since the capture before:" : "The first capture in the store:"}</p>
    <ul class="changes">
      ${changed.map((page) => {
        const approval = entry.approvals.find((a) => a.page === page.path);
        const editors = editorsLine(approval);
        if (page.approvedSha256 !== page.textSha256)
          return html`<li data-page="${page.path}">
            <strong>${page.title}</strong>: <span class="drift">✗ the live words were not the approved words</span>${
              approval ? html` (the approved words: approved by ${approverLine(approval)})` : ""
            }
          </li>`;
        return html`<li data-page="${page.path}">
          <strong>${page.title}</strong>${editors ? html`: edited by ${editors}` : ""}${
            approval ? html`; approved by ${approverLine(approval)}` : html`; no approval is recorded for it`
          }
        </li>`;
      })}
    </ul>`;
}

/** Why a capture needs attention, in a few words. */
const why = (entry: CaptureEntry) =>
  !entry.complete
    ? "it never finished"
    : !entry.ok
      ? "what is stored does not match the record"
      : `the live text differed from the approved text on ${driftOf(entry)
          .map((p) => p.title)
          .join(", ")}`;

function item(entry: CaptureEntry, previous: CaptureEntry | undefined) {
  const drifted = driftOf(entry);
  return html`<li data-capture="${entry.name}">
    <h3><a href="${captureUrl(entry.name)}">${dateWritten(entry.time, true)}</a></h3>
    <p
      class="meta"
      data-time-source="${entry.certification ? ("waiting" in entry.certification ? "waiting" : "certified-later") : entry.timeSource}"
    >
      ${KIND_WORDS[entry.kind]} · ${timeSource(entry)}
    </p>
    ${stateOf(entry)}
    ${
      drifted.length
        ? html`<p class="check bad" data-state="drift">
            <strong>✗ The live site differed from the approved text</strong> on ${drifted.map((p) => p.title).join(", ")}.
          </p>`
        : ""
    }
    ${commitLine(entry)} ${changesOf(entry, previous)}
  </li>`;
}

export function timelinePage(
  session: Session,
  entries: CaptureEntry[],
  options: { before?: string; storeLabel: string; writeOnce: boolean },
) {
  const newestFirst = [...entries].reverse();
  const start = options.before ? newestFirst.findIndex((e) => e.name < options.before!) : 0;
  const shown = start < 0 ? [] : newestFirst.slice(start, start + PAGE_SIZE);
  const previousOf = (entry: CaptureEntry) => entries[entries.indexOf(entry) - 1];
  const attention = entries.filter((e) => !e.complete || !e.ok || driftOf(e).length > 0);
  const older = start >= 0 && newestFirst[start + PAGE_SIZE];
  const body = html`<h1>Records</h1>
    <p>
      What the public site said, captured ${entries.length}
      time${entries.length === 1 ? "" : "s"}${
        entries.length ? html` from ${dateWritten(entries[0]!.time)} to ${dateWritten(entries.at(-1)!.time)}` : ""
      },
      kept
      ${options.writeOnce ? html`on write-once storage (${options.storeLabel})` : html`in ${options.storeLabel}, which is not write-once storage`}.
    </p>
    <section aria-labelledby="as-of">
      <h2 id="as-of">The site as of a moment</h2>
      <form method="get" action="/admin/records" class="inline">
        <label for="at">Date and time, in UTC</label>
        <input id="at" name="at" type="datetime-local" step="1" required />
        <button type="submit">Show the site then</button>
      </form>
      <p><a href="/admin/records/export">Export records for an examiner</a> · <a href="/admin/records/compare">Compare two captures</a></p>
    </section>
    ${
      attention.length
        ? html`<section aria-labelledby="attention" class="message error">
            <h2 id="attention">${attention.length} capture${attention.length === 1 ? " needs" : "s need"} attention</h2>
            <ul>
              ${attention.map((e) => html`<li><a href="${captureUrl(e.name)}">${dateWritten(e.time, true)}</a>: ${why(e)}</li>`)}
            </ul>
          </section>`
        : ""
    }
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline, newest first</h2>
      ${
        entries.length === 0
          ? html`<p>
              No capture yet. <code>npm run records:capture</code> makes one; the deploy and the daily workflow make them in production.
            </p>`
          : html`<ol class="timeline">
              ${shown.map((entry) => item(entry, previousOf(entry)))}
            </ol>`
      }
      ${older ? html`<p><a href="/admin/records?before=${shown.at(-1)!.name}">Earlier captures</a></p>` : ""}
    </section>`;
  return studioPage("Records", body, { session });
}
