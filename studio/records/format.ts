/** How the records pages say times, kinds and people: dates written out, in UTC, as the record keeps them. */
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import type { ManifestApproval } from "../../lib/records/manifest.ts";
import { dateWritten, dayWritten } from "../../lib/dates.ts";
import { timeSourceWords } from "../../lib/records/wording.ts";

export { dateWritten, dayWritten };

/** Where the time of record comes from, in one phrase (lib/records/wording.ts, as the export says it). */
export const timeSource = (entry: CaptureEntry) => timeSourceWords(entry.timeSource, entry.certification);

/** "Pat Example (Series 24, CRD 1000001), 23 November 2026, 22:38 UTC". */
export function approverLine(approval: ManifestApproval): string {
  const principal = approval.principal;
  const who = principal ? `${principal.name} (${principal.registration}, CRD ${principal.crd})` : approval.approvedBy;
  return `${who}, ${dateWritten(approval.approvedOn)}`;
}

/** "Erin Editor and Sam Principal", or undefined when the record does not say. */
export function editorsLine(approval: ManifestApproval | undefined): string | undefined {
  const names = approval?.editedBy?.map((p) => p.name) ?? [];
  if (names.length === 0) return undefined;
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** An ISO date-time from the as-of field: `2026-03-14T12:00` (a datetime-local, read as UTC), a date alone, or full ISO. */
export function parseMoment(value: string | undefined): Date | undefined {
  const text = (value ?? "").trim();
  if (!text) return undefined;
  const withZone = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T23:59:59.999Z`
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)
      ? `${text}Z`
      : text;
  const date = new Date(withZone);
  return Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text) ? undefined : date;
}
