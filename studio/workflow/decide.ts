/**
 * A principal's decision on an entry in review: approve, request changes or reject, each recorded in
 * the review log with who, when, the commit and the comment. Approving also records the approval on
 * the branch (approve.ts) and sets the entry Ready; the other two send it back to Draft for the editor.
 * Server mode: the approver is the signed-in principal with an active roster entry, signed in afresh,
 * who wrote no part of the change (FINRA Rule 3110(b)(6)(C); the roster's exception is recorded when
 * used). Loopback mode, one developer: the approver's name and registration are typed, as before.
 */
import { activeEntry, utcDay, type RosterEntry } from "../../lib/approval/roster.ts";
import { StudioRefusal } from "../git.ts";
import { momentWritten } from "../../lib/zoned-time.ts";
import { sessionDigest, type Session } from "../auth/sessions.ts";
import { editsOf, entryName, setStatus, type Entry } from "./entries.ts";
import { recordApprovalCommit, typedApproverEmail, type Approver } from "./approve.ts";
import { appendEvent, type EventKind, type LoggedActor, type ReviewEvent } from "./log.ts";
import { momentOf, scheduleOf, writeSchedule, type Schedule, type ScheduleForm } from "./schedule.ts";

export type Decision = "approve" | "request_changes" | "reject";
export const DECISIONS: Record<Decision, EventKind> = { approve: "approved", request_changes: "changes_requested", reject: "rejected" };

/** A refusal about one field of the decision's form: the review shows it at that field. */
export class FieldRefusal extends StudioRefusal {
  readonly field: "comment" | "name" | "registration" | "publishAt";
  constructor(message: string, field: FieldRefusal["field"]) {
    super(message);
    this.field = field;
  }
}

export interface DecisionContext {
  root: string;
  repo: string;
  session: Session;
  /** How recent a sign-in must be to approve (server mode). */
  freshMs: number;
  roster: () => RosterEntry[];
  now?: () => Date;
  /** Server mode: approvals may carry a moment to publish, in this zone (STUDIO_TIME_ZONE); undefined in loopback. */
  scheduling?: { timeZone: string };
}

export interface DecisionForm extends Partial<ScheduleForm> {
  head: string;
  comment: string;
  /** Loopback only: the approver as typed. */
  name?: string;
  registration?: string;
  /** With a moment: publish nothing if the moment is missed (the studio down), instead of late. */
  holdIfLate?: boolean;
}

const oneLine = (text: string | undefined) => (text ?? "").trim().replace(/\s+/g, " ");

/** The person recorded with an approval or a review: as typed (loopback), or the roster's record of the signed-in principal. */
function principalFor(ctx: DecisionContext, form: Pick<DecisionForm, "name" | "registration">, now: Date, what: string) {
  const actor = ctx.session.actor;
  if (actor.local) {
    const name = oneLine(form.name);
    const registration = oneLine(form.registration);
    if (!name || !registration)
      throw new FieldRefusal(
        "Give the principal's name and registration (for example: Series 24, CRD 1234567).",
        name ? "registration" : "name",
      );
    if (/[<>]/.test(name + registration))
      throw new FieldRefusal("The name and registration must be one line, without < or >.", /[<>]/.test(name) ? "name" : "registration");
    return {
      approver: { name, registration, email: typedApproverEmail(registration) } satisfies Approver,
      logged: { name, email: typedApproverEmail(registration), role: "developer" as const, registration },
    };
  }
  const roster = activeEntry(ctx.roster(), actor.email, utcDay(now));
  if (!roster)
    throw new StudioRefusal(
      `You have no active entry on the principals' roster today (${utcDay(now)}), so you cannot ${what}: compliance keeps the roster (approvals/roster.json).`,
    );
  const registration = roster.registrations[0]!;
  return {
    approver: { name: roster.name, registration, email: actor.email, crd: roster.crd } satisfies Approver,
    logged: {
      name: roster.name,
      email: actor.email,
      role: actor.role,
      issuer: actor.issuer,
      subject: actor.subject,
      crd: roster.crd,
      registration,
    },
    roster,
  };
}

/** A principal's sign-in must be recent, and confirmed, to approve or review (server mode). */
function requireFresh(ctx: DecisionContext, now: Date, doing: string, todo: string) {
  const actor = ctx.session.actor;
  if (!actor.local && (!actor.confirmed || now.getTime() - actor.authTime > ctx.freshMs))
    throw new StudioRefusal(
      `${doing} needs you to confirm it is you: choose "Confirm it's you", sign in again, then ${todo} within ${Math.round(ctx.freshMs / 60_000)} minutes.`,
    );
}

/** Who may approve, and as whom: the roster's record (server) or the typed name (loopback). */
function approverFor(ctx: DecisionContext, entry: Entry, form: DecisionForm, now: Date) {
  const who = principalFor(ctx, form, now, "approve");
  const { roster } = who;
  if (!roster) return { approver: who.approver, logged: who.logged, exception: undefined };
  const { actor } = ctx.session;
  const authors = [...new Set(editsOf(ctx.repo, entry.branch).map((e) => e.email))];
  const own = authors.includes(actor.email);
  if (own && !roster.selfApprovalException)
    throw new StudioRefusal(
      "You wrote part of this change, so another principal must approve it (separation of duties, FINRA Rule 3110(b)(6)(C)).",
    );
  requireFresh(ctx, now, "Approving", "approve");
  return { approver: who.approver, logged: who.logged, authors, exception: own ? (roster.selfApprovalException ?? undefined) : undefined };
}

/**
 * Who records a page's "Reviewed, no change" (decision 0056), and as whom: a principal on the roster,
 * signed in afresh (server), or the developer typing the principal's name (loopback). Nobody else.
 */
export function reviewerFor(ctx: DecisionContext, form: Pick<DecisionForm, "name" | "registration">) {
  const now = ctx.now?.() ?? new Date();
  const actor = ctx.session.actor;
  if (!actor.local && actor.role !== "principal")
    throw new StudioRefusal("Only a registered principal on the roster can record a review of a page.");
  const who = principalFor(ctx, form, now, "record a review");
  requireFresh(ctx, now, "Recording a review", "record it");
  return {
    ...who,
    auth: actor.local ? undefined : { authTime: new Date(actor.authTime).toISOString(), session: sessionDigest(ctx.session.id) },
  };
}

/** Carries out a decision; resolves to the sentence the principal reads next, or throws a StudioRefusal. */
export async function decide(ctx: DecisionContext, entry: Entry, decision: Decision, form: DecisionForm): Promise<string> {
  const now = ctx.now?.() ?? new Date();
  const actor = ctx.session.actor;
  if (!actor.local && actor.role !== "principal")
    throw new StudioRefusal("Only a registered principal on the roster can approve, request changes or reject an entry.");
  // Ready without an approval happens in the loopback studio, where the one developer sets the status.
  if (entry.status === "draft") throw new StudioRefusal("This entry is not in review: the editor sends it to review first.");
  if (form.head !== entry.head)
    throw new StudioRefusal("The entry changed since this page was loaded: reload it and review the change again.");
  const comment = (form.comment ?? "").trim();
  if (comment.length > 4000) throw new FieldRefusal("The comment is too long: keep it under 4,000 characters.", "comment");
  const name = entryName(ctx.repo, entry);
  const base = { at: now.toISOString(), entry: { collection: entry.collection, slug: entry.slug, branch: entry.branch, name } };
  if (decision !== "approve") {
    if (!comment)
      throw new FieldRefusal("Say what should change: the comment is kept with the decision and shown to the editor.", "comment");
    const logged: LoggedActor = actor.local
      ? { name: actor.name, email: actor.email, role: "developer" }
      : { name: actor.name, email: actor.email, role: actor.role, issuer: actor.issuer, subject: actor.subject };
    appendEvent(ctx.repo, { event: DECISIONS[decision], ...base, commit: entry.head, actor: logged, comment });
    setStatus(ctx.repo, entry.branch, "draft");
    return decision === "reject"
      ? `Rejected ${name}: the editor sees your comment.`
      : `Changes requested on ${name}: the editor sees your comment.`;
  }
  const moment = momentFor(ctx, form, now);
  const who = approverFor(ctx, entry, form, now);
  const publishAt = moment && { at: moment.at, timeZone: moment.timeZone };
  const approved = await recordApprovalCommit(
    ctx.root,
    ctx.repo,
    entry.branch,
    entry.head,
    who.approver,
    { ...(who.exception ? { selfApprovalException: who.exception } : {}), ...(publishAt ? { publishAt } : {}) },
    now,
  );
  const event: ReviewEvent = {
    event: "approved",
    ...base,
    commit: entry.head,
    actor: who.logged,
    ...(comment ? { comment } : {}),
    pages: approved.pages.map(({ page, sha256 }) => ({ page, sha256 })),
    ...("authors" in who ? { authors: who.authors, separation: who.exception ? ("exception" as const) : ("ok" as const) } : {}),
    ...(who.exception ? { selfApprovalException: who.exception } : {}),
    ...(actor.local ? {} : { auth: { authTime: new Date(actor.authTime).toISOString(), session: sessionDigest(ctx.session.id) } }),
    ...(moment ? { schedule: { at: moment.at, timeZone: moment.timeZone, holdIfLate: moment.holdIfLate } } : {}),
  };
  appendEvent(ctx.repo, event);
  setStatus(ctx.repo, entry.branch, "pending_publish");
  // The schedule names the head approved: the approval commit, now the branch's head.
  if (ctx.scheduling)
    writeSchedule(ctx.repo, entry.branch, moment && { ...moment, head: approved.commit, by: who.logged, setAt: now.toISOString() });
  if (moment)
    return `Approved ${name} as ${who.approver.name}, to publish at ${momentWritten(moment.at, moment.timeZone)}: the studio publishes it then, after the approval gate passes again.`;
  return `Approved ${name} as ${who.approver.name}: it is Ready, and can be published.`;
}

/** The moment a decision's "Publish at" names, checked; undefined when none is given. */
function momentFor(ctx: DecisionContext, form: DecisionForm, now: Date): Pick<Schedule, "at" | "timeZone" | "holdIfLate"> | undefined {
  if (!form.publishAt?.trim()) return undefined;
  if (!ctx.scheduling)
    throw new StudioRefusal(
      "Scheduling needs the team studio (server mode), which keeps the schedule on the firm's git host: approve without a time here.",
    );
  const { timeZone } = ctx.scheduling;
  const found = momentOf({ publishAt: form.publishAt, offset: form.offset ?? "" }, timeZone, now);
  if ("refusal" in found) throw new FieldRefusal(found.refusal, "publishAt");
  return { at: found.at.toISOString(), timeZone, holdIfLate: Boolean(form.holdIfLate) };
}

export type ScheduleAction = "move" | "cancel";

/**
 * A principal moves or cancels the schedule of a Ready entry (issue 56): moving is part of the
 * approval, so it needs the same fresh sign-in; cancelling needs only the role. An editor is refused.
 */
export function reschedule(ctx: DecisionContext, entry: Entry, action: ScheduleAction, form: DecisionForm): string {
  const now = ctx.now?.() ?? new Date();
  const actor = ctx.session.actor;
  if (!actor.local && actor.role !== "principal")
    throw new StudioRefusal("Only a registered principal on the roster can set, move or cancel a schedule.");
  if (!ctx.scheduling) throw new StudioRefusal("Scheduling needs the team studio (server mode).");
  if (form.head !== entry.head)
    throw new StudioRefusal("The entry changed since this page was loaded: reload it and review the change again.");
  const schedule = scheduleOf(ctx.repo, entry.branch);
  if (!schedule || entry.status !== "pending_publish") throw new StudioRefusal("This entry has no schedule to change.");
  const name = entryName(ctx.repo, entry);
  const who = principalFor(ctx, form, now, action === "cancel" ? "cancel a schedule" : "move a schedule");
  const base = { at: now.toISOString(), entry: { collection: entry.collection, slug: entry.slug, branch: entry.branch, name } };
  if (action === "cancel") {
    writeSchedule(ctx.repo, entry.branch, undefined);
    appendEvent(ctx.repo, {
      event: "unscheduled",
      ...base,
      commit: entry.head,
      actor: who.logged,
      schedule: { at: schedule.at, timeZone: schedule.timeZone },
    });
    return `Cancelled the schedule of ${name}: it stays Ready, and is published only when someone publishes it.`;
  }
  const moment = momentFor(ctx, form, now);
  if (!moment) throw new FieldRefusal("Give the new moment to publish, or cancel the schedule.", "publishAt");
  requireFresh(ctx, now, "Moving a schedule", "move it");
  writeSchedule(ctx.repo, entry.branch, { ...moment, head: entry.head, by: who.logged, setAt: now.toISOString() });
  appendEvent(ctx.repo, {
    event: "scheduled",
    ...base,
    commit: entry.head,
    actor: who.logged,
    schedule: { at: moment.at, timeZone: moment.timeZone, holdIfLate: moment.holdIfLate },
  });
  return `Moved the schedule of ${name} to ${momentWritten(moment.at, moment.timeZone)}.`;
}
