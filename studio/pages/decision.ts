/**
 * The decision part of an entry's review: what the signed-in person may do with it now, and why not
 * when they may not (a draft, an editor, the author of the change, a sign-in too old to approve with).
 * Approving needs a fresh sign-in, started from a link (a GET), never from a form post. A refusal about
 * a field is said at that field (aria-describedby, aria-invalid), which takes focus, with what was typed.
 */
import { activeEntry, utcDay, type RosterEntry } from "../../lib/approval/roster.ts";
import type { Session } from "../auth/sessions.ts";
import type { Entry } from "../workflow/entries.ts";
import { html, type Markup } from "./layout.ts";

export interface DecisionView {
  entry: Entry;
  session: Session;
  /** The editors' e-mails on the entry's branch. */
  authors: string[];
  pages: number;
  roster: RosterEntry[];
  freshMs: number;
  reviewUrl: string;
  /** The last post's refusal about one field, with what was typed. */
  problem?: DecisionProblem;
}

export interface DecisionProblem {
  form: "approve" | "changes";
  field: "comment" | "name" | "registration";
  text: string;
  typed: { comment: string; name: string; registration: string };
}

/** A field's id and, when the last post was refused over it, its message and the attributes that tie them. */
function field(v: DecisionView, form: DecisionProblem["form"], name: DecisionProblem["field"], id: string) {
  const problem = v.problem?.form === form && v.problem.field === name ? v.problem : undefined;
  return {
    typed: v.problem?.form === form ? v.problem.typed[name] : "",
    error: problem ? html`<p class="field-error" id="${id}-error">${problem.text}</p>` : "",
    tie: problem ? html`aria-invalid="true" aria-describedby="${id}-error" autofocus` : "",
  };
}

const token = (session: Session, entry: Entry) =>
  html`<input type="hidden" name="_csrf" value="${session.csrf}" /><input type="hidden" name="head" value="${entry.head}" />`;

function changesForm(v: DecisionView): Markup {
  const comment = field(v, "changes", "comment", "comment-changes");
  return html`<form method="post" action="${v.reviewUrl}" class="decide">
    ${token(v.session, v.entry)}
    <label for="comment-changes">Comment for the editor (required to request changes or reject)</label>${comment.error}
    <textarea id="comment-changes" name="comment" rows="3" required ${comment.tie}>${comment.typed}</textarea>
    <div class="actions">
      <button type="submit" name="decision" value="request_changes" class="secondary">Request changes</button>
      <button type="submit" name="decision" value="reject" class="danger">Reject</button>
    </div>
  </form>`;
}

function approveForm(v: DecisionView, note: Markup | string = ""): Markup {
  const [name, registration, comment] = [
    field(v, "approve", "name", "name"),
    field(v, "approve", "registration", "registration"),
    field(v, "approve", "comment", "comment-approve"),
  ];
  const typed = v.session.actor.local
    ? html`<label for="name">Principal's name</label>${name.error}<input
          id="name"
          name="name"
          required
          autocomplete="name"
          value="${name.typed}"
          ${name.tie}
        />
        <label for="registration">Registration</label>${registration.error}<input
          id="registration"
          name="registration"
          required
          placeholder="Series 24, CRD 1234567"
          value="${registration.typed}"
          ${registration.tie}
        />`
    : "";
  return html`<form method="post" action="${v.reviewUrl}" class="decide">
    ${token(v.session, v.entry)}${note}${typed}
    <label for="comment-approve">Comment (optional, kept with the approval)</label>${comment.error}<textarea
      id="comment-approve"
      name="comment"
      rows="2"
      ${comment.tie}
    >
${comment.typed}</textarea>
    <div class="actions">
      <button type="submit" name="decision" value="approve">Approve ${v.pages} page${v.pages === 1 ? "" : "s"}</button>
    </div>
  </form>`;
}

export function decisionPart(v: DecisionView): Markup {
  const { entry, session } = v;
  const { actor } = session;
  if (entry.status === "draft")
    return html`<p>This entry is a draft: the editor sends it to review (Status: In review) when it is ready.</p>`;
  if (entry.status === "pending_publish" && v.pages === 0)
    return html`<p>Approved and Ready: it can be published from the entry in the studio (Publish, then Publish now).</p>`;
  if (actor.local) return html`${approveForm(v)}${changesForm(v)}`;
  if (actor.role !== "principal")
    return html`<p>
      A registered principal on the roster decides on this entry; you can follow it here. You are signed in as
      ${actor.role === "compliance" ? "compliance" : "an editor"}.
    </p>`;
  const today = utcDay(new Date());
  const roster = activeEntry(v.roster, actor.email, today);
  if (!roster)
    return html`<p role="alert">
      You have no active entry on the principals' roster today (${today}), so you cannot decide on entries. Compliance keeps the roster.
    </p>`;
  const own = v.authors.includes(actor.email);
  let approve: Markup;
  if (own && !roster.selfApprovalException)
    approve = html`<p class="message note" data-separation>
      You wrote part of this change, so another principal must approve it (separation of duties, FINRA Rule 3110(b)(6)(C)). You can still
      request changes or reject it.
    </p>`;
  else if (!actor.confirmed || Date.now() - actor.authTime > v.freshMs)
    approve = html`<p>
        Approving records your name, CRD and registration with the change. It needs you to sign in again (valid for
        ${Math.round(v.freshMs / 60_000)} minutes).
      </p>
      <p><a class="button" href="/auth/login?fresh=1&amp;return=${encodeURIComponent(v.reviewUrl)}">Confirm it's you to approve</a></p>`;
  else
    approve = approveForm(
      v,
      own
        ? html`<p class="message note">
            You wrote part of this change. The roster allows you to approve it (${roster.selfApprovalException}); the approval records that.
          </p>`
        : "",
    );
  return html`${approve}${changesForm(v)}`;
}
