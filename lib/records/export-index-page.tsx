/**
 * The export's index.html, the page an examiner opens first: no script, no network, printable. A React
 * component rendered to static markup (decision 0051), so every value of the record is escaped by React.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { dateWritten } from "../dates.ts";
import {
  approver,
  linkWords,
  reviewDay,
  reviewerWords,
  selectionWords,
  STILL_IN_USE,
  timeSource,
  until,
  type ExportIndex,
  type IndexedCapture,
} from "./export-index.ts";
import { KIND_WORDS } from "./wording.ts";

// Inline, as the file is read offline from a zip: there is no server to send a stylesheet or a CSP.
const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:68rem;margin:2rem auto;padding:0 1rem;color:#111}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eee}.ok{color:#0a6b2d}.bad{color:#b00020}.note{background:#fff6d5;padding:.5rem 1rem}code{font-size:13px;word-break:break-all}
@media print{body{margin:0;max-width:none}section{break-inside:avoid-page}a{color:inherit}}`;

function PageRow({
  record,
  page,
  approvals,
}: {
  record: IndexedCapture["record"];
  page: IndexedCapture["pages"][number];
  approvals: IndexedCapture["approvals"];
}) {
  const a = approvals.find((x) => x.page === page.path);
  return (
    <tr>
      <td>{page.title}</td>
      {a ? (
        <>
          <td>
            {approver(a)}
            {page.approvedSha256 === page.textSha256 ? null : (
              <>
                {" "}
                <span className="bad">(the page did not say the approved text)</span>
              </>
            )}
          </td>
          <td>{a.crd ?? "not recorded"}</td>
          <td>{dateWritten(a.approvedOn)}</td>
          <td>{a.editors?.map((e) => e.name).join(", ") || "not recorded"}</td>
        </>
      ) : (
        <>
          <td>
            <span className="bad">no approval on record</span>
          </td>
          <td></td>
          <td></td>
          <td></td>
        </>
      )}
      <td>
        {page.review ? (
          <>
            {`Last reviewed ${reviewDay(page.review.lastReviewed)}, ${page.review.reviewedBy ? `by ${page.review.reviewedBy}` : reviewerWords(page.review)}; due ${reviewDay(page.review.due)}.`}
            {page.review.status === "overdue" ? (
              <>
                {" "}
                <span className="bad">Overdue for review at the time of record.</span>
              </>
            ) : null}
          </>
        ) : (
          "not recorded"
        )}
      </td>
      <td>
        {page.use
          ? `From ${dateWritten(page.use.firstUse)}${page.use.lastUse ? ` until ${dateWritten(page.use.lastUse)}` : `; ${STILL_IN_USE}`}`
          : "not recorded"}
      </td>
      <td>
        <a href={`captures/${record.name}/${page.pdf}`}>PDF</a>
      </td>
    </tr>
  );
}

function CaptureSection({ capture: { record, pages, approvals } }: { capture: IndexedCapture }) {
  const kind = KIND_WORDS[record.kind as keyof typeof KIND_WORDS] ?? KIND_WORDS.unrecorded;
  return (
    <section>
      <h2>{`In force from ${dateWritten(record.inForceFrom)}${record.inForceUntil ? ` until ${until(record)}` : ", the latest capture when exported"}`}</h2>
      <p>{`Time of record ${dateWritten(record.time)}: ${timeSource(record)}. ${kind}.`}</p>
      <p>{`${record.verification.ok ? "✓ Verified" : "✗ Did not verify"} in the store on ${dateWritten(record.verification.checkedAt)}:`}</p>
      <ul>
        {record.verification.lines.map((l, i) => (
          <li key={i} className={l.ok ? "ok" : "bad"}>{`${l.ok ? "✓" : "✗"} ${l.label}: ${l.text}`}</li>
        ))}
      </ul>
      <table>
        <thead>
          <tr>
            <th>Page</th>
            <th>Approved by</th>
            <th>CRD</th>
            <th>Approved on</th>
            <th>Written by</th>
            <th>Review</th>
            <th>This version in use</th>
            <th>Printed</th>
          </tr>
        </thead>
        <tbody>
          {pages.map((page) => (
            <PageRow key={page.path} record={record} page={page} approvals={approvals} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TechnicalDetails({ capture: { record, pages } }: { capture: IndexedCapture }) {
  return (
    <>
      <h3>{dateWritten(record.inForceFrom)}</h3>
      <p>
        Capture <code>{record.name}</code>; manifest.json SHA-256 <code>{record.manifestSha256}</code>; commit{" "}
        <code>{record.commit ?? "not recorded"}</code>; files under <code>{`captures/${record.name}/`}</code>.
      </p>
      <table>
        <thead>
          <tr>
            <th>Page</th>
            <th>Text SHA-256</th>
            <th>Links (name: address)</th>
          </tr>
        </thead>
        <tbody>
          {pages.map((p) => (
            <tr key={p.path}>
              <td>{p.title}</td>
              <td>
                <code>{p.textSha256}</code>
              </td>
              <td>{linkWords(p.links) || "not recorded"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function ExportIndexPage({ index, captures }: { index: ExportIndex; captures: IndexedCapture[] }) {
  const by = [index.exportedBy.name, index.exportedBy.role, index.exportedBy.email].filter(Boolean).join(", ");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Website records for examination</title>
        <meta name="viewport" content="width=device-width" />
        <style>{STYLE}</style>
      </head>
      <body>
        <h1>Website records</h1>
        <p>{`This export shows ${selectionWords(index.selection)}, and who approved each page. Made ${dateWritten(index.createdAt)} by ${by}.`}</p>
        <p>{`Each capture below was the website in force from its time of record (for a studio publish, the moment it went live) until the next capture's. ${captures.length} capture${captures.length === 1 ? "" : "s"}.`}</p>
        {index.notes.map((note, i) => (
          <p key={i} className="note">
            {note}
          </p>
        ))}
        {captures.map((capture) => (
          <CaptureSection key={capture.record.name} capture={capture} />
        ))}
        <section>
          <h2>Technical details</h2>
          <p>{`From ${index.store}. How to check every file offline: README.txt.`}</p>
          {captures.map((capture) => (
            <TechnicalDetails key={capture.record.name} capture={capture} />
          ))}
        </section>
      </body>
    </html>
  );
}

/** index.html, whole. */
export const renderHtml = (index: ExportIndex, captures: IndexedCapture[]) =>
  `<!DOCTYPE html>\n${renderToStaticMarkup(<ExportIndexPage index={index} captures={captures} />)}\n`;
