/** How the studio's pages say times, people and the review log's events. */
import { whenShort } from "../../lib/dates.ts";
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
};

/** "Approved by Pat Example (Principal, Series 24, CRD 1000001), 23 Nov 2026, 14:05 UTC". */
export const eventLine = (event: ReviewEvent) => `${VERBS[event.event]} by ${who(event.actor)}, ${whenShort(event.at)}`;
