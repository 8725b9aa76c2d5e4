import { monthWritten, usDayWritten } from "../../lib/dates.ts";

/** "January 2025" from a date (lib/dates.ts: in UTC, so the build machine's time zone cannot shift the month). */
export const formatLastUpdated = (date: Date | string) => monthWritten(date);

/** "December 1, 2026" from a date, in UTC: the day a disclosure was withdrawn. */
export const formatDay = (date: Date) => usDayWritten(date);

/** How many "## " sections a document has (DOCUMENT_COLLECTIONS[…].sections). */
export interface SectionCount {
  min: number;
  max: number;
}

const count = ({ min, max }: SectionCount) => (min === max ? `exactly ${min}` : `${min} to ${max}`);

/**
 * Why a document's "## " headings (its contents list, made from the body) are not what its collection
 * allows, naming the file and the headings it has; null when they are. The studio's editor refuses the
 * same count before a save (studio/config.ts), so this is a developer's message.
 */
export function sectionsProblem(file: string, headings: readonly string[], allowed: SectionCount): string | null {
  const empty = headings.findIndex((heading) => !heading.trim());
  if (empty >= 0) return `${file}: "## " heading ${empty + 1} of the body has no words; give it a title or remove it`;
  if (headings.length >= allowed.min && headings.length <= allowed.max) return null;
  const listed = headings.length ? `: ${headings.map((h) => `"${h}"`).join(", ")}` : "";
  return `${file}: the body has ${headings.length} "## " heading${headings.length === 1 ? "" : "s"}${listed}; this page needs ${count(allowed)}`;
}
