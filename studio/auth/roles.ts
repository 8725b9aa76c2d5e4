/**
 * Who may do what in the studio. Access comes from the IdP's groups (deprovisioning there removes it at
 * the next sign-in); principal powers also need an active entry in the roster (approvals/roster.json),
 * matched on the ID token's verified e-mail. A member of the principals' group without one is an editor,
 * or compliance when in that group too; compliance reads the records and follows reviews, and edits
 * nothing. Someone in none of the groups is refused, in one sentence.
 */
import { activeEntry, type RosterEntry } from "../../lib/approval/roster.ts";
import type { GroupNames } from "../settings.ts";
import type { Role } from "./sessions.ts";

export interface IdTokenClaims {
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  [claim: string]: unknown;
}

export type RoleDecision = { role: Role; roster?: RosterEntry } | { refused: string };

const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : typeof value === "string" ? [value] : [];

export function roleOf(claims: IdTokenClaims, groups: GroupNames, roster: RosterEntry[], today: string): RoleDecision {
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email)
    return {
      refused: "Your sign-in gave the studio no e-mail address: ask the firm's IdP administrator to release the email claim to the studio.",
    };
  const member = new Set(listOf(claims[groups.claim]));
  const inPrincipals = member.has(groups.principals);
  const inCompliance = member.has(groups.compliance);
  if (!inPrincipals && !inCompliance && !member.has(groups.editors))
    return {
      refused: `Your account (${email}) is in none of the studio's groups (editors: ${groups.editors}, principals: ${groups.principals}, compliance: ${groups.compliance}): ask the firm's IdP administrator for access.`,
    };
  const entry = inPrincipals && claims.email_verified === true ? activeEntry(roster, email, today) : undefined;
  if (entry) return { role: "principal", roster: entry };
  return { role: inCompliance ? "compliance" : "editor" };
}

export const ROLE_LABEL: Record<Role, string> = { editor: "Editor", principal: "Principal", compliance: "Compliance" };

/** Who may open the records (`/admin/records`): compliance and principals; the loopback studio's one developer too. */
export const readsRecords = (actor: { role: Role; local?: boolean }) => Boolean(actor.local) || actor.role !== "editor";
