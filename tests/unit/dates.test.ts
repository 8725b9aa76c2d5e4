/** Every date written for people comes from lib/dates.ts, in UTC whatever the machine's time zone. */
import { describe, expect, it } from "vitest";
import { dateWritten, dayWritten, monthWritten, reportTime, usDayWritten, whenShort } from "../../lib/dates.ts";

describe("dates written for people", () => {
  it.each([
    // an instant, then each form of it
    [
      "2026-03-14T06:17:05Z",
      "14 March 2026",
      "14 March 2026, 06:17 UTC",
      "14 March 2026, 06:17:05 UTC",
      "14 Mar 2026, 06:17 UTC",
      "March 2026",
      "March 14, 2026",
      "Saturday, March 14, 2026 at 6:17 AM UTC",
    ],
    // late in the day in UTC: no time zone moves the day
    [
      "2026-09-30T23:59:00Z",
      "30 September 2026",
      "30 September 2026, 23:59 UTC",
      "30 September 2026, 23:59:00 UTC",
      "30 Sep 2026, 23:59 UTC",
      "September 2026",
      "September 30, 2026",
      "Wednesday, September 30, 2026 at 11:59 PM UTC",
    ],
  ])("%s", (iso, day, date, seconds, short, month, us, report) => {
    expect(dayWritten(iso)).toBe(day);
    expect(dateWritten(iso)).toBe(date);
    expect(dateWritten(new Date(iso), true)).toBe(seconds);
    expect(whenShort(iso)).toBe(short);
    expect(monthWritten(iso)).toBe(month);
    expect(usDayWritten(iso)).toBe(us);
    expect(reportTime(iso)).toBe(report);
  });
});
