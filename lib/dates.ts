/** Times as the record writes them for people: in UTC, with the date written out ("14 March 2026, 06:17 UTC"). */
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const pad = (n: number) => String(n).padStart(2, "0");

/** "14 March 2026, 06:17 UTC"; with seconds when asked (two captures may fall in one minute). */
export function dateWritten(iso: string | Date, seconds = false): string {
  const d = new Date(iso);
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${seconds ? `:${pad(d.getUTCSeconds())}` : ""}`;
  return `${dayWritten(d)}, ${time} UTC`;
}

/** "14 March 2026". */
export function dayWritten(iso: string | Date): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
