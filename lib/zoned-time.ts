/**
 * A wall-clock time in a named time zone ("2027-03-01T09:30" in America/New_York) and the one instant
 * it names, on Intl alone, so that the process's own zone (TZ) never moves it (decision 0057). Around a
 * daylight-saving change a local time may name no instant (02:30 on a spring-forward day) or two
 * (01:30 on a fall-back day): both are said, never guessed; of two, the caller chooses the earlier or
 * the later. Also how the studio writes a scheduled moment: "1 Mar 2027, 09:30 America/New_York (14:30 UTC)".
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `instant` in `timeZone`, as milliseconds of a UTC calendar (its fields, not an instant). */
function wallOf(instant: number, timeZone: string): number {
  const fields: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(new Date(instant)))
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  return Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!);
}

/** The zone's offset from UTC at `instant`, in minutes (New York in winter: -300). */
export const offsetAt = (instant: Date | number, timeZone: string): number => {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wallOf(whole, timeZone) - whole) / 60_000);
};

/** "UTC−04:00". */
export function offsetWritten(minutes: number): string {
  const sign = minutes < 0 ? "\u2212" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export type LocalTime =
  | { kind: "instant"; at: Date; offset: number }
  /** The clocks skip this time (spring forward). */
  | { kind: "missing" }
  /** The clocks show this time twice (fall back): the two instants, earlier first. */
  | { kind: "ambiguous"; instants: [{ at: Date; offset: number }, { at: Date; offset: number }] }
  | { kind: "malformed" };

/**
 * The instant(s) a local time names in `timeZone`. `choose` picks one of two (a fall-back day's
 * repeated hour); without it, two are returned as ambiguous.
 */
export function instantOf(local: string, timeZone: string, choose?: "earlier" | "later"): LocalTime {
  const match = LOCAL.exec(local);
  if (!match) return { kind: "malformed" };
  const [year, month, day, hour, minute, second] = match.slice(1).map((field) => Number(field ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(wall);
  // Date.UTC rolls 31 Feb over to March: such a time is not a time.
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return { kind: "malformed" };
  // Every offset the zone has within a day either side; each that maps back to this wall time is an answer.
  const offsets = new Set([offsetAt(wall - 86_400_000, timeZone), offsetAt(wall, timeZone), offsetAt(wall + 86_400_000, timeZone)]);
  const found = [...offsets]
    .map((offset) => ({ at: new Date(wall - offset * 60_000), offset }))
    .filter(({ at }) => wallOf(at.getTime(), timeZone) === wall)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  if (found.length === 0) return { kind: "missing" };
  if (found.length === 1 || choose) {
    const one = choose === "later" ? found.at(-1)! : found[0]!;
    return { kind: "instant", ...one };
  }
  return { kind: "ambiguous", instants: [found[0]!, found[1]!] };
}

const SHORT_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const clock = (d: Date) => `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
const dayOf = (d: Date) => `${d.getUTCDate()} ${SHORT_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

/** "1 Mar 2027, 09:30 America/New_York": the wall clock of `at` in `timeZone`. */
export function zonedWritten(at: Date | string, timeZone: string): string {
  const wall = new Date(wallOf(Math.floor(new Date(at).getTime() / 1000) * 1000, timeZone));
  return `${dayOf(wall)}, ${clock(wall)} ${timeZone}`;
}

/** "1 Mar 2027, 09:30 America/New_York (14:30 UTC)", with the UTC day when it is another. */
export function momentWritten(at: Date | string, timeZone: string): string {
  const instant = new Date(at);
  const wall = new Date(wallOf(Math.floor(instant.getTime() / 1000) * 1000, timeZone));
  const utc = dayOf(wall) === dayOf(instant) ? `${clock(instant)} UTC` : `${dayOf(instant)}, ${clock(instant)} UTC`;
  return `${zonedWritten(instant, timeZone)} (${utc})`;
}

/** The value of an `<input type="datetime-local">` for `at` in `timeZone`: "2027-03-01T09:30" (with seconds: "…T09:30:15"). */
export function localValue(at: Date | string, timeZone: string, seconds = false): string {
  const unit = seconds ? 1000 : 60_000;
  return new Date(wallOf(Math.floor(new Date(at).getTime() / unit) * unit, timeZone)).toISOString().slice(0, seconds ? 19 : 16);
}

/** The next change of the zone's offset after `from` (to the minute), within about a year; undefined when there is none. */
export function nextOffsetChange(from: Date, timeZone: string): { at: Date; offset: number } | undefined {
  const start = offsetAt(from, timeZone);
  let day = from.getTime();
  for (let i = 0; i < 400 && offsetAt(day + 86_400_000, timeZone) === start; i++) day += 86_400_000;
  if (offsetAt(day + 86_400_000, timeZone) === start) return undefined;
  // Within that day: the hour, then the minute, where the offset changes.
  let [low, high] = [day, day + 86_400_000];
  while (high - low > 60_000) {
    const mid = low + Math.floor((high - low) / 2 / 60_000) * 60_000;
    if (offsetAt(mid, timeZone) === start) low = mid;
    else high = mid;
  }
  return { at: new Date(high), offset: offsetAt(high, timeZone) };
}
