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
import { momentWritten, nextOffsetChange, offsetAt, offsetWritten } from "../../lib/zoned-time.ts";
import { scheduledLine, scheduleState, type Schedule } from "../workflow/schedule.ts";

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
  /** Server mode: approvals may carry "Publish at", in the firm's zone. */
  scheduling?: { timeZone: string };
  /** The entry's schedule, when it has one. */
  schedule?: Schedule;
}

export interface DecisionProblem {
  form: "approve" | "changes" | "schedule";
  field: "comment" | "name" | "registration" | "publishAt";
  text: string;
  typed: { comment: string; name: string; registration: string; publishAt?: string; offset?: string; holdIfLate?: boolean };
}

/** A field's id and, when the last post was refused over it, its message and the attributes that tie them. */
function field(v: DecisionView, form: DecisionProblem["form"], name: DecisionProblem["field"], id: string) {
  const problem = v.problem?.form === form && v.problem.field === name ? v.problem : undefined;
  return {
    typed: v.problem?.form === form ? (v.problem.typed[name] ?? "") : "",
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
      <textarea id="comment-changes" name="comment" rows={3} required defaultValue={comment.typed as string} {...comment.tie} />
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

/**
 * "Publish at": a date and time in the firm's zone, named beside the field, with the zone's offset now
 * and at its next change (the page has no script: the instant in UTC is said once it is set, on the
 * review and the board); which of a repeated time; and whether to hold it if the moment is missed.
 */
function PublishAtFields({ v, form, required }: { v: DecisionView; form: DecisionProblem["form"]; required?: boolean }) {
  const { timeZone } = v.scheduling!;
  const id = `publish-at-${form}`;
  const at = field(v, form, "publishAt", id);
  const typed = v.problem?.form === form ? v.problem.typed : undefined;
  const change = nextOffsetChange(v.now, timeZone);
  return (
    <fieldset className="publish-at">
      <legend>{required ? "New moment to publish" : "Publish at (optional)"}</legend>
      <p id={`${id}-hint`} className="hint">
        In {timeZone}, the firm's time zone: {offsetWritten(offsetAt(v.now, timeZone))} now
        {change ? `, ${offsetWritten(change.offset)} from ${momentWritten(change.at, timeZone)}` : ""}.{" "}
        {required ? "" : "Leave it empty to publish by hand. "}The approval gate runs again at the moment.
      </p>
      <label htmlFor={id}>Date and time in {timeZone}</label>
      {at.error}
      <input
        id={id}
        name="publishAt"
        type="datetime-local"
        required={required}
        defaultValue={at.typed as string}
        {...at.tie}
        aria-describedby={[`${id}-hint`, at.error ? `${id}-error` : ""].filter(Boolean).join(" ")}
      />
      <label htmlFor={`${id}-offset`}>If the time happens twice (the night the clocks go back)</label>
      <select id={`${id}-offset`} name="offset" defaultValue={typed?.offset ?? ""}>
        <option value="">Ask me</option>
        <option value="earlier">The first, before the clocks go back</option>
        <option value="later">The second, after the clocks go back</option>
      </select>
      <p className="tick">
        <input id={`${id}-hold`} name="holdIfLate" type="checkbox" value="1" defaultChecked={typed?.holdIfLate ?? false} />
        <label htmlFor={`${id}-hold`}>Hold it if late: publish nothing if the studio misses the moment (it was down)</label>
      </p>
    </fieldset>
  );
}

/** A Ready entry's schedule: when, by whom, where the gate stands; a principal may move or cancel it. */
function SchedulePart({ v, mayChange }: { v: DecisionView; mayChange: boolean }) {
  const schedule = v.schedule!;
  const state = scheduleState(schedule);
  return (
    <section className="schedule" aria-labelledby="schedule-heading" data-schedule={schedule.at}>
      <h3 id="schedule-heading">Schedule</h3>
      <p data-scheduled="">
        {scheduledLine(schedule)}
        {schedule.holdIfLate ? ", held if late" : ""}.
      </p>
      <p className={schedule.outcome || schedule.gate?.refusal ? "message error" : "message note"} data-schedule-state="">
        {state}
      </p>
      {mayChange ? (
        <>
          <form method="post" action={`${v.reviewUrl}/schedule`} className="decide">
            <Token session={v.session} entry={v.entry} />
            <PublishAtFields v={v} form="schedule" required />
            <div className="actions">
              <button type="submit" name="action" value="move">
                Move the schedule
              </button>
            </div>
          </form>
          <form method="post" action={`${v.reviewUrl}/schedule`} className="decide">
            <Token session={v.session} entry={v.entry} />
            <div className="actions">
              <button type="submit" name="action" value="cancel" className="secondary">
                Cancel the schedule
              </button>
            </div>
          </form>
        </>
      ) : null}
    </section>
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
          <input id="name" name="name" required autoComplete="name" defaultValue={name.typed as string} {...name.tie} />
          <label htmlFor="registration">Registration</label>
          {registration.error}
          <input
            id="registration"
            name="registration"
            required
            placeholder="Series 24, CRD 1234567"
            defaultValue={registration.typed as string}
            {...registration.tie}
          />
        </>
      ) : null}
      <label htmlFor="comment-approve">Comment (optional, kept with the approval)</label>
      {comment.error}
      <textarea id="comment-approve" name="comment" rows={2} defaultValue={comment.typed as string} {...comment.tie} />
      {v.scheduling ? <PublishAtFields v={v} form="approve" /> : null}
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
  if (entry.status === "pending_publish" && v.pages === 0) {
    if (!v.schedule) return <p>Approved and Ready: it can be published from the entry in the studio (Publish, then Publish now).</p>;
    const mayChange = !actor.local && actor.role === "principal" && Boolean(activeEntry(v.roster, actor.email, utcDay(v.now)));
    return <SchedulePart v={v} mayChange={mayChange} />;
  }
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
