/**
 * The decision part of an entry's review: what the signed-in person may do with it now, and why not
 * when they may not (a draft, an editor, the author of the change, a sign-in too old to approve with).
 * Approving needs a fresh sign-in, started from a link (a GET), never from a form post. A refusal about
 * a field is said at that field (aria-describedby, aria-invalid), which takes focus, with what was typed.
 */
import { activeEntry, utcDay, type RosterEntry } from "../../lib/approval/roster.ts";
import type { Session } from "../auth/sessions.ts";
import type { Entry } from "../workflow/entries.ts";
import type { ReactNode } from "react";

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
  /** When the page is drawn: the day of the roster, and whether the sign-in is fresh enough to approve. */
  now: Date;
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
    error: problem ? (
      <p className="field-error" id={`${id}-error`}>
        {problem.text}
      </p>
    ) : null,
    tie: problem ? { "aria-invalid": true as const, "aria-describedby": `${id}-error`, autoFocus: true } : {},
  };
}

function Token({ session, entry }: { session: Session; entry: Entry }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={session.csrf} />
      <input type="hidden" name="head" value={entry.head} />
    </>
  );
}

function ChangesForm({ v }: { v: DecisionView }) {
  const comment = field(v, "changes", "comment", "comment-changes");
  return (
    <form method="post" action={v.reviewUrl} className="decide">
      <Token session={v.session} entry={v.entry} />
      <label htmlFor="comment-changes">Comment for the editor (required to request changes or reject)</label>
      {comment.error}
      <textarea id="comment-changes" name="comment" rows={3} required defaultValue={comment.typed} {...comment.tie} />
      <div className="actions">
        <button type="submit" name="decision" value="request_changes" className="secondary">
          Request changes
        </button>
        <button type="submit" name="decision" value="reject" className="danger">
          Reject
        </button>
      </div>
    </form>
  );
}

function ApproveForm({ v, note }: { v: DecisionView; note?: ReactNode }) {
  const [name, registration, comment] = [
    field(v, "approve", "name", "name"),
    field(v, "approve", "registration", "registration"),
    field(v, "approve", "comment", "comment-approve"),
  ];
  return (
    <form method="post" action={v.reviewUrl} className="decide">
      <Token session={v.session} entry={v.entry} />
      {note}
      {v.session.actor.local ? (
        <>
          <label htmlFor="name">Principal's name</label>
          {name.error}
          <input id="name" name="name" required autoComplete="name" defaultValue={name.typed} {...name.tie} />
          <label htmlFor="registration">Registration</label>
          {registration.error}
          <input
            id="registration"
            name="registration"
            required
            placeholder="Series 24, CRD 1234567"
            defaultValue={registration.typed}
            {...registration.tie}
          />
        </>
      ) : null}
      <label htmlFor="comment-approve">Comment (optional, kept with the approval)</label>
      {comment.error}
      <textarea id="comment-approve" name="comment" rows={2} defaultValue={comment.typed} {...comment.tie} />
      <div className="actions">
        <button type="submit" name="decision" value="approve">
          Approve {v.pages} page{v.pages === 1 ? "" : "s"}
        </button>
      </div>
    </form>
  );
}

/** What the signed-in person may do with the entry now, or why not. */
export function DecisionPart(v: DecisionView) {
  const { entry, session } = v;
  const { actor } = session;
  if (entry.status === "draft") return <p>This entry is a draft: the editor sends it to review (Status: In review) when it is ready.</p>;
  if (entry.status === "pending_publish" && v.pages === 0)
    return <p>Approved and Ready: it can be published from the entry in the studio (Publish, then Publish now).</p>;
  if (actor.local)
    return (
      <>
        <ApproveForm v={v} />
        <ChangesForm v={v} />
      </>
    );
  if (actor.role !== "principal")
    return (
      <p>
        A registered principal on the roster decides on this entry; you can follow it here. You are signed in as{" "}
        {actor.role === "compliance" ? "compliance" : "an editor"}.
      </p>
    );
  const today = utcDay(v.now);
  const roster = activeEntry(v.roster, actor.email, today);
  if (!roster)
    return (
      <p role="alert">
        You have no active entry on the principals' roster today ({today}), so you cannot decide on entries. Compliance keeps the roster.
      </p>
    );
  const own = v.authors.includes(actor.email);
  let approve: ReactNode;
  if (own && !roster.selfApprovalException)
    approve = (
      <p className="message note" data-separation="">
        You wrote part of this change, so another principal must approve it (separation of duties, FINRA Rule 3110(b)(6)(C)). You can still
        request changes or reject it.
      </p>
    );
  else if (!actor.confirmed || v.now.getTime() - actor.authTime > v.freshMs)
    approve = (
      <>
        <p>
          Approving records your name, CRD and registration with the change. It needs you to sign in again (valid for{" "}
          {Math.round(v.freshMs / 60_000)} minutes).
        </p>
        <p>
          <a className="button" href={`/auth/login?fresh=1&return=${encodeURIComponent(v.reviewUrl)}`}>
            Confirm it's you to approve
          </a>
        </p>
      </>
    );
  else
    approve = (
      <ApproveForm
        v={v}
        note={
          own ? (
            <p className="message note">
              You wrote part of this change. The roster allows you to approve it ({roster.selfApprovalException}); the approval records
              that.
            </p>
          ) : null
        }
      />
    );
  return (
    <>
      {approve}
      <ChangesForm v={v} />
    </>
  );
}
