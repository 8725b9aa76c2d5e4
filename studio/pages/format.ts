/** How the studio's pages say times, people and the review log's events. */
import { whenShort } from "../../lib/dates.ts";
import { momentWritten } from "../../lib/zoned-time.ts";
import { LATE_AFTER_MS, lateness } from "../workflow/schedule.ts";
import { ROLE_LABEL } from "../auth/roles.ts";
import type { LoggedActor, ReviewEvent } from "../workflow/log.ts";

/** "Pat Example (Principal, Series 24, CRD 1000001)". */
export function who(actor: LoggedActor): string {
  const role = actor.role === "developer" ? "developer" : ROLE_LABEL[actor.role];
  const record = [actor.registration, actor.crd && `CRD ${actor.crd}`].filter(Boolean).join(", ");
  return `${actor.name} (${role}${record ? `, ${record}` : ""})`;
}

const VERBS: Record<ReviewEvent["event"], string> = {
  submitted: "Sent to review",
  changes_requested: "Changes requested",
  rejected: "Rejected",
  approved: "Approved",
  published: "Published",
  withdrawn: "Withdrawn",
  discarded: "Discarded",
  exported: "Exported for an examiner",
  reviewed: "Reviewed, no change,",
  scheduled: "Schedule moved",
  unscheduled: "Schedule cancelled",
  schedule_refused: "Not published at the scheduled moment (the approval gate refused it), as scheduled",
  schedule_held: "Held at the scheduled moment, as chosen",
};

/** "Approved by Pat Example (Principal, Series 24, CRD 1000001), 23 Nov 2026, 14:05 UTC". */
export function eventLine(event: ReviewEvent): string {
  if (event.event === "published" && event.scheduled) {
    const late = event.scheduled.lateMs > LATE_AFTER_MS ? `, ${lateness(event.scheduled.lateMs)}` : "";
    return `Published as scheduled by ${who(event.actor)} for ${momentWritten(event.scheduled.at, event.scheduled.timeZone)}, at ${whenShort(event.at)}${late}`;
  }
  const line = `${VERBS[event.event]} by ${who(event.actor)}, ${whenShort(event.at)}`;
  if ((event.event === "approved" || event.event === "scheduled") && event.schedule)
    return `${line}, to publish at ${momentWritten(event.schedule.at, event.schedule.timeZone)}${event.schedule.holdIfLate ? " (held if late)" : ""}`;
  return line;
}
