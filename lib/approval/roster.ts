/**
 * The roster of registered principals who may approve the site's text in the content studio
 * (approvals/roster.json): the authority for the name, CRD number and registrations recorded with an
 * approval, and, through its git history, the record of who was designated and when (FINRA Rule
 * 3110(b)(6)(B)). Changed in the repository under compliance's review, never in the studio. The build
 * checks it, naming the file and the field.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const ROSTER_FILE = "approvals/roster.json";

const day = z.iso.date("a date as YYYY-MM-DD");

const entrySchema = z
  .strictObject({
    /** The principal's e-mail at the firm's IdP, as its ID token gives it (verified); lower case. */
    email: z.email("an e-mail address").refine((email) => email === email.toLowerCase(), "lower case, as the IdP gives it"),
    /** The name recorded with each approval, as registered (BrokerCheck). */
    name: z.string().trim().min(1, "the principal's registered name"),
    /** The individual's CRD number. */
    crd: z.string().regex(/^\d{1,10}$/, "the CRD number, digits only"),
    /** Principal registrations held, e.g. "Series 24"; the first is the one recorded. */
    registrations: z.array(z.string().trim().min(1)).min(1, "at least one registration, e.g. Series 24"),
    /** First day the designation is effective. */
    from: day,
    /** Last day it is effective; null while it is. */
    until: day.nullable(),
    /**
     * Compliance's reason, when the firm must let this principal approve a change they wrote (FINRA
     * Rule 3110(b)(6)(C)'s exception for a firm too small to do otherwise); the ledger records its use.
     */
    selfApprovalException: z.string().trim().min(1).nullable().optional(),
  })
  .refine((entry) => entry.until === null || entry.until >= entry.from, { message: "until is before from", path: ["until"] });

const rosterSchema = z.array(entrySchema).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (seen.has(entry.email)) ctx.addIssue({ code: "custom", message: "listed twice", path: [i, "email"] });
    seen.add(entry.email);
  });
});

export type RosterEntry = z.infer<typeof entrySchema>;

/** Parses a roster; throws one message naming the file and each bad field ("approvals/roster.json: 1.crd: …"). */
export function parseRoster(json: string, file = ROSTER_FILE): RosterEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`, { cause: error });
  }
  const result = rosterSchema.safeParse(data);
  if (!result.success)
    throw new Error(`${file}: ${result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
  return result.data;
}

/** The project's roster (an empty one when the file does not exist). */
export function readRoster(root: string): RosterEntry[] {
  const file = join(root, ROSTER_FILE);
  return existsSync(file) ? parseRoster(readFileSync(file, "utf8")) : [];
}

/** The entry in force for an e-mail on a day (YYYY-MM-DD, UTC), if any. */
export function activeEntry(roster: RosterEntry[], email: string, today: string): RosterEntry | undefined {
  const wanted = email.trim().toLowerCase();
  return roster.find((entry) => entry.email === wanted && entry.from <= today && (entry.until === null || today <= entry.until));
}

/** Today's date in UTC, as the roster writes dates. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);
