/**
 * Approvals (`/admin/approvals`): every entry of the workflow by where it stands, named as people say
 * it, with who edited it and the latest step of its review; and the entries published lately, with who
 * approved and who published them, when. Read from git alone (no build), so it opens at once.
 */
import type { Session } from "../auth/sessions.ts";
import { editsOf, entryName, listEntries, type Entry, type Status } from "../workflow/entries.ts";
import { eventsOf, readEvents, type ReviewEvent } from "../workflow/log.ts";
import { whenShort } from "../../lib/dates.ts";
import type { NotOnHost } from "../workflow/host.ts";
import { eventLine } from "./format.ts";
import { html, studioPage } from "./layout.ts";
import { reviewUrl } from "./review.ts";
import { discardForm } from "./discard.ts";

const GROUPS: Array<{ status: Status; heading: string; empty: string }> = [
  { status: "pending_review", heading: "Waiting for a principal's review", empty: "No entry is in review." },
  { status: "pending_publish", heading: "Approved, ready to publish", empty: "No entry is waiting to be published." },
  { status: "draft", heading: "Drafts", empty: "No drafts." },
];

const NOT_ON_HOST = "Not yet on the firm's git host: the studio keeps trying, and nothing is lost meanwhile.";

function entryItem(repo: string, entry: Entry, events: ReviewEvent[], session: Session, notOnHost?: NotOnHost) {
  const edits = editsOf(repo, entry.branch);
  const last = eventsOf(events, entry.branch).at(-1);
  const editors = [...new Set(edits.map((e) => e.name))].join(", ");
  const name = entryName(repo, entry);
  const away = notOnHost?.entries.has(entry.branch);
  return html`<li data-entry="${entry.branch}" ${away ? html` data-not-on-host` : ""}>
    <a href="${reviewUrl(entry)}">${name}</a>
    ${editors ? html` · edited by ${editors}${edits.length ? html`, ${whenShort(edits.at(-1)!.at)}` : ""}` : ""}
    ${last ? html`<br /><span class="meta">${eventLine(last)}</span>${last.comment && last.event !== "approved" ? html`<blockquote>${last.comment}</blockquote>` : ""}` : ""}
    ${away ? html`<br /><span class="meta">${NOT_ON_HOST}</span>` : ""} ${discardForm(repo, entry, session, name)}
  </li>`;
}

/** The board; `notOnHost` (server mode) marks what the firm's git host does not have yet. */
export function approvalsPage(repo: string, session: Session, notice?: { ok: boolean; text: string }, notOnHost?: NotOnHost) {
  const entries = listEntries(repo);
  const events = readEvents(repo);
  const groups = GROUPS.map(({ status, heading, empty }) => {
    const mine = entries.filter((e) => e.status === status);
    return html`<section>
      <h2>${heading}</h2>
      ${
        mine.length
          ? html`<ul>
              ${mine.map((e) => entryItem(repo, e, events, session, notOnHost))}
            </ul>`
          : html`<p>${empty}</p>`
      }
    </section>`;
  });
  const published = events
    .filter((e) => e.event === "published")
    .slice(-10)
    .reverse();
  const approvalOf = (p: ReviewEvent) =>
    events.filter((e) => e.event === "approved" && e.entry.branch === p.entry.branch && e.at <= p.at).at(-1);
  const recent = published.length
    ? html`<ul>
        ${published.map((p) => {
          const approval = approvalOf(p);
          return html`<li>${p.entry.name}: ${approval ? html`${eventLine(approval)}; ` : ""}${eventLine(p)}</li>`;
        })}
      </ul>`
    : html`<p>Nothing has been published from the studio yet.</p>`;
  return studioPage(
    "Approvals",
    html`<h1>Approvals</h1>
      <p>Every change to the site's words is reviewed here by a registered principal before it is published.</p>
      ${
        notOnHost?.events
          ? html`<p role="status" data-log-not-on-host>
              ${notOnHost.events} step${notOnHost.events === 1 ? "" : "s"} of the review log ${notOnHost.events === 1 ? "is" : "are"} not
              yet on the firm's git host: the studio keeps trying, and nothing is lost meanwhile.
            </p>`
          : ""
      }
      ${groups}
      <section>
        <h2>Published lately</h2>
        ${recent}
      </section>`,
    { session, notice },
  );
}
