/**
 * Export for the examiner (`/admin/records/export`): a date range or a list of dates in, one zip out
 * (lib/records/export.ts: the captures in force then, their PDFs, WARCs, manifests, timestamp tokens
 * and approvals, with an index a person reads offline). Every export is recorded in the review log:
 * who, what was asked for, which captures, the zip's SHA-256.
 */
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "../pages/studio-page.tsx";

export interface ExportForm {
  from?: string;
  to?: string;
  dates?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The fields a refusal is about: it is tied to them (aria-describedby) and they are marked invalid. */
export type ExportField = "from" | "to" | "dates";

/** The selection a form asks for, or the sentence that says what is wrong with it. */
export function readSelection(
  form: ExportForm,
): { from: Date; to: Date; label: string } | { dates: string[]; label: string } | { error: string; fields: ExportField[] } {
  const dates = (form.dates ?? "")
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);
  if (dates.length) {
    const bad = dates.find((d) => !DAY.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`)));
    if (bad) return { error: `"${bad}" is not a date: write dates as YYYY-MM-DD, separated by commas.`, fields: ["dates"] };
    if (dates.length > 366) return { error: "Ask for at most 366 dates in one export.", fields: ["dates"] };
    return { dates: [...new Set(dates)].sort(), label: dates.join(", ") };
  }
  if (!form.from || !DAY.test(form.from) || !form.to || !DAY.test(form.to))
    return {
      error: "Give a first and a last day (or a list of dates) for the export.",
      fields: [...(form.from && DAY.test(form.from) ? [] : ["from" as const]), ...(form.to && DAY.test(form.to) ? [] : ["to" as const])],
    };
  const from = new Date(`${form.from}T00:00:00.000Z`);
  const to = new Date(`${form.to}T23:59:59.999Z`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    return { error: "Those are not dates: write them as YYYY-MM-DD.", fields: ["from", "to"] };
  if (to < from) return { error: "The last day is before the first: swap them.", fields: ["from", "to"] };
  return { from, to, label: form.from === form.to ? form.from : `${form.from} to ${form.to}` };
}

export interface ExportPageProps {
  session: Session;
  form?: ExportForm;
  /** Why the last request was refused: read first (it takes focus) and said again at each field it is about. */
  problem?: string;
  fields?: ExportField[];
  notes?: string[];
}

export function ExportPage({ session, form = {}, problem, fields = ["from", "to", "dates"], notes }: ExportPageProps) {
  const tie = (field: ExportField) =>
    problem && fields.includes(field) ? { "aria-describedby": "export-problem", "aria-invalid": true as const } : {};
  return (
    <StudioPage title="Export records" session={session}>
      <h1>Export records for an examiner</h1>
      <p>
        One zip with every capture in force during the days asked for: each page's PDF, the web archive (WARC), the manifest with its
        hashes, the trusted timestamp, and who approved each page, with an index to read offline (index.html) and a table (index.csv). The
        export is recorded in the review log under your name.
      </p>
      <p>
        <strong>Download as WACZ</strong> gives the same captures in the web-archiving world&apos;s own format, which ReplayWeb.page opens
        without uploading it; <code>npm run records:verify</code> checks either file.
      </p>
      {problem ? (
        <p className="message error" role="alert" id="export-problem" tabIndex={-1} autoFocus>
          {problem}
        </p>
      ) : null}
      {notes?.length ? (
        <div className="message note" role="status">
          {notes.map((note, i) => (
            <p key={i}>{note}</p>
          ))}
        </div>
      ) : null}
      <form method="post" action="/admin/records/export">
        <input type="hidden" name="_csrf" value={session.csrf} />
        <fieldset>
          <legend>A range of days (UTC)</legend>
          <label htmlFor="from">First day</label>
          <input id="from" name="from" type="date" defaultValue={form.from ?? ""} {...tie("from")} />
          <label htmlFor="to">Last day</label>
          <input id="to" name="to" type="date" defaultValue={form.to ?? ""} {...tie("to")} />
        </fieldset>
        <label htmlFor="dates">Or a list of dates (YYYY-MM-DD, separated by commas)</label>
        <input id="dates" name="dates" type="text" defaultValue={form.dates ?? ""} placeholder="2026-03-14, 2026-06-30" {...tie("dates")} />
        <div className="actions">
          <button type="submit" name="format" value="zip">
            Make the export
          </button>
          <button type="submit" name="format" value="wacz" className="secondary">
            Download as WACZ
          </button>
        </div>
      </form>
    </StudioPage>
  );
}
