/**
 * Every date and time written for people, in one module, on Intl.DateTimeFormat and always in UTC, so
 * that the build machine's, the studio host's or a reader's time zone never moves a day:
 * - the records and the studio: "14 March 2026, 06:17 UTC" (`dateWritten`), "14 March 2026" (`dayWritten`),
 *   and the studio's short form "23 Nov 2026, 14:02 UTC" (`whenShort`);
 * - the site's documents: "January 2025" (`monthWritten`, "Last updated") and "December 1, 2026"
 *   (`usDayWritten`, a disclosure's withdrawal), in the American English of the site;
 * - the daily drift report: "Monday, January 5, 2026 at 6:17 AM UTC" (`reportTime`).
 */
const utc = (locale: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });

const DAY = utc("en-GB", { day: "numeric", month: "long", year: "numeric" });
const CLOCK = utc("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const CLOCK_SECONDS = utc("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
// en-US's short months ("Sep"): en-GB's CLDR data writes "Sept".
const SHORT_MONTH = utc("en-US", { month: "short" });
const MONTH_YEAR = utc("en-US", { month: "long", year: "numeric" });
const US_DAY = utc("en-US", { month: "long", day: "numeric", year: "numeric" });
const REPORT = utc("en-US", { dateStyle: "full", timeStyle: "short" });

/** "14 March 2026". */
export const dayWritten = (at: string | Date) => DAY.format(new Date(at));

/** "14 March 2026, 06:17 UTC"; with seconds when asked (two captures may fall in one minute). */
export const dateWritten = (at: string | Date, seconds = false) =>
  `${dayWritten(at)}, ${(seconds ? CLOCK_SECONDS : CLOCK).format(new Date(at))} UTC`;

/** "23 Nov 2026, 14:02 UTC": the studio's lists and histories, one clock for everyone, as the record keeps it. */
export function whenShort(at: string | Date): string {
  const d = new Date(at);
  return `${d.getUTCDate()} ${SHORT_MONTH.format(d)} ${d.getUTCFullYear()}, ${CLOCK.format(d)} UTC`;
}

/** "January 2025": a document's "Last updated". */
export const monthWritten = (at: string | Date) => MONTH_YEAR.format(new Date(at));

/** "December 1, 2026": the day a disclosure was withdrawn, as the site writes dates. */
export const usDayWritten = (at: string | Date) => US_DAY.format(new Date(at));

/** "Monday, January 5, 2026 at 6:17 AM UTC": the daily check's report on the firm's issue tracker. */
export const reportTime = (at: string | Date) => `${REPORT.format(new Date(at))} UTC`;

/** "1 Nov 2027": a plain date (YYYY-MM-DD, already the firm's day) in the studio's short form; review dates. */
export function dayShort(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return `${d.getUTCDate()} ${SHORT_MONTH.format(d)} ${d.getUTCFullYear()}`;
}
