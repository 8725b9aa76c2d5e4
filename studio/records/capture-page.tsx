/**
 * One capture (`/admin/records/capture/<name>`), or the capture in force at a moment
 * (`/admin/records?at=…`): when it was made and by whose clock, its verification recomputed from the
 * stored bytes (each line ✓ or ✗ in one sentence), and each page as people name it, with who edited and
 * approved its words, its PDF as printed at capture and the page replayed from the WARC as served (as
 * a first visit saw it, or with its overlays closed as the capture's visitor closed them: decision
 * 0047). Keys, hashes and headers wait under "Technical details".
 */
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { MANIFEST, TIMESTAMP_TOKEN } from "../../lib/records/manifest.ts";
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "../pages/studio-page.tsx";
import { approverLine, dateWritten, editorsLine, timeSource } from "./format.ts";
import { KIND_WORDS } from "../../lib/records/wording.ts";
import type { Overlays } from "./replay-overlays.ts";
import type { Recorded } from "./replay.ts";
import { captureUrl, Changes, CommitLine, driftOf } from "./timeline.tsx";

export interface CaptureView {
  entry: CaptureEntry;
  previous?: CaptureEntry;
  next?: CaptureEntry;
  /** The page shown: its path. */
  page: string;
  /** The recorded response of the page shown (for its headers), when the WARC has it. */
  recorded?: Recorded;
  /** Set when the page was opened "as of" a moment. */
  asOf?: { at: string; dayOnly: boolean; sameDay: CaptureEntry[] };
  storeLabel: string;
  writeOnce: boolean;
  /** Where the page's replay is (its root, with the pass the studio gave for it), and the view it shows. */
  replay: { root: string; overlays: Overlays };
}

const pageLink = (name: string, path: string, at?: string, overlays: Overlays = "shown") =>
  (at
    ? `/admin/records?at=${encodeURIComponent(at)}&page=${encodeURIComponent(path)}`
    : `${captureUrl(name)}?page=${encodeURIComponent(path)}`) + (overlays === "closed" ? "&overlays=closed" : "");

/** Which view the replay shows, and the link to the other. */
function OverlaysToggle({ view }: { view: CaptureView }) {
  const other = pageLink(view.entry.name, view.page, view.asOf?.at, view.replay.overlays === "closed" ? "shown" : "closed");
  return view.replay.overlays === "closed" ? (
    <p data-overlays="closed">
      The replay shows the page with its overlays closed, as the capture's visitor closed them: Reject All on the cookie banner, then the
      popup's Close. <a href={other}>Show it as a first visit saw it</a>, banner and popup included.
    </p>
  ) : (
    <p data-overlays="shown">
      The replay shows the page as a first visit saw it, cookie banner and popup included.{" "}
      <a href={other}>Show it with the overlays closed</a>, as the capture's visitor closed them (Reject All, then the popup's Close).
    </p>
  );
}

function AsOfBanner({ view }: { view: CaptureView }) {
  const { asOf, entry, next } = view;
  if (!asOf) return null;
  return (
    <p className="message note" role="status" data-as-of="">
      As of {dateWritten(asOf.at, true)}, the site was as captured on <strong>{dateWritten(entry.time, true)}</strong>.{" "}
      {next ? (
        <>
          The next capture is from <a href={captureUrl(next.name)}>{dateWritten(next.time, true)}</a>.
        </>
      ) : (
        "It is the latest capture."
      )}{" "}
      {asOf.dayOnly && asOf.sameDay.length > 1
        ? `The site was captured ${asOf.sameDay.length} times that day; this is the last of them.`
        : null}
    </p>
  );
}

function Verification({ view }: { view: CaptureView }) {
  const { entry } = view;
  const lines = entry.complete ? entry.lines : [{ label: "Capture complete", ok: false, text: entry.missing ?? "", problems: [] }];
  return (
    <section aria-labelledby="verification">
      <h2 id="verification">Verification</h2>
      <p className="meta" data-checked="">
        Recomputed from the stored files on {dateWritten(entry.checkedAt, true)}, and again whenever a stored file changes.{" "}
        <a href={`${captureUrl(entry.name)}?check=now&page=${encodeURIComponent(view.page)}`}>Check every file again now</a>
      </p>
      <ul className="checks">
        {lines.map((l, i) => (
          <li key={i} className={l.ok ? "good" : "bad"}>
            <strong>{`${l.ok ? "✓" : "✗"} ${l.label}:`}</strong> {l.text}
            {l.problems.length > 1 ? (
              <ul>
                {l.problems.slice(1).map((p, j) => (
                  <li key={j}>{p}</li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
        {view.writeOnce ? null : (
          <li className="bad">
            <strong>✗ Write-once storage:</strong> kept in {view.storeLabel}, which anyone with access to it can change.
          </li>
        )}
      </ul>
    </section>
  );
}

function PageSection({ view }: { view: CaptureView }) {
  const { entry } = view;
  const page = entry.pages.find((p) => p.path === view.page);
  if (!page) return <p>This capture has no page at {view.page}.</p>;
  const approval = entry.approvals.find((a) => a.page === page.path);
  const editors = editorsLine(approval);
  const base = captureUrl(entry.name);
  const pdf = `${base}/pdf/${page.pdf.replace(/^pdf\//, "")}`;
  const replayed = `${view.replay.root}${page.path === "/404" ? "/no-such-page" : page.path}`;
  const drifted = page.approvedSha256 !== page.textSha256;
  return (
    <section aria-labelledby="page-heading" data-page={page.path}>
      <h2 id="page-heading">{page.title}</h2>
      <p>
        {approval ? `Approved by ${approverLine(approval)}` : "No approval is recorded for this page"}
        {editors ? `; edited by ${editors}` : null}.{" "}
        {drifted ? (
          <strong className="drift">✗ The live page's words were not the approved words when captured.</strong>
        ) : (
          "The captured words are the approved words."
        )}
      </p>
      <div className="frames records">
        <figure>
          <figcaption>
            As printed when captured (PDF) · <a href={pdf}>Open the PDF</a>
          </figcaption>
          <iframe tabIndex={-1} title={`${page.title}, printed when captured (PDF)`} src={pdf}></iframe>
        </figure>
        <figure>
          <figcaption>
            Replayed from the web archive, as served · <a href={replayed}>Open the replay</a>
          </figcaption>
          <iframe sandbox="allow-scripts" tabIndex={-1} title={`${page.title}, replayed as served`} src={replayed}></iframe>
        </figure>
      </div>
      <OverlaysToggle view={view} />
      <details>
        <summary>Technical details of this page</summary>
        <p>
          Address <code>{page.url}</code>, status {page.status}. SHA-256 of its HTML <code>{page.htmlSha256}</code>, of its text{" "}
          <code>{page.textSha256}</code>
          {approval ? (
            <>
              , approved text <code>{approval.sha256}</code>
            </>
          ) : null}
          .
        </p>
        {view.recorded ? (
          <>
            <p>
              The response as recorded (the replay leaves out headers that would act on the studio: HSTS, cookies, caching, framing
              refusals, reporting; points every address the page names into the replay, its third parties' included; and answers what the
              capture did not record as not archived, never from the network):
            </p>
            <pre>{`HTTP ${view.recorded.status} ${view.recorded.statusText}\n${view.recorded.headers.map(([n, v]) => `${n}: ${v}`).join("\n")}`}</pre>
          </>
        ) : null}
      </details>
    </section>
  );
}

export function CapturePage({ session, view }: { session: Session; view: CaptureView }) {
  const { entry, previous, next } = view;
  const at = view.asOf?.at;
  const drifted = driftOf(entry);
  return (
    <StudioPage title={`Records: ${dateWritten(entry.time)}`} session={session}>
      <h1>The site as captured on {dateWritten(entry.time, true)}</h1>
      <AsOfBanner view={view} />
      <p className="meta">
        {KIND_WORDS[entry.kind]}
        {entry.origin ? ` of ${entry.origin}` : null} · {timeSource(entry)}
        {entry.timeSource === "tsa" ? null : ` (${dateWritten(entry.createdAt, true)})`}
      </p>
      <CommitLine entry={entry} />
      <nav aria-label="Other captures" className="actions">
        {previous ? <a href={captureUrl(previous.name)}>← The capture before ({dateWritten(previous.time)})</a> : null}{" "}
        {next ? <a href={captureUrl(next.name)}>The capture after ({dateWritten(next.time)}) →</a> : <span>The latest capture</span>}{" "}
        {previous ? <a href={`/admin/records/compare?a=${previous.name}&b=${entry.name}`}>Compare with the capture before</a> : null}{" "}
        <a href="/admin/records">All records</a>
      </nav>
      <Verification view={view} />
      {drifted.length ? (
        <p className="message error" data-state="drift">
          The live site's words differed from the approved text on {drifted.map((p) => p.title).join(", ")} when this was captured.
        </p>
      ) : null}
      {entry.complete ? (
        <>
          <section aria-labelledby="changes">
            <h2 id="changes">What changed</h2>
            <Changes entry={entry} previous={previous} />
          </section>
          <nav aria-label="Pages of this capture">
            <h2>Pages</h2>
            <ul className="pages">
              {entry.pages.map((p) => (
                <li key={p.path}>
                  <a href={pageLink(entry.name, p.path, at, view.replay.overlays)} aria-current={p.path === view.page ? "page" : undefined}>
                    {p.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <PageSection view={view} />
        </>
      ) : null}
      <details>
        <summary>Technical details</summary>
        <p>
          Capture <code>{entry.name}</code> in {view.storeLabel}
          {entry.commit ? (
            <>
              , built from commit <code>{entry.commit}</code>
            </>
          ) : null}
          .{" "}
          {entry.manifestSha256 ? (
            <>
              SHA-256 of {MANIFEST}: <code>{entry.manifestSha256}</code>.
            </>
          ) : null}
        </p>
        <ul>
          {[MANIFEST, `${MANIFEST}.sha256`, TIMESTAMP_TOKEN].map((f) => (
            <li key={f}>
              <a href={`${captureUrl(entry.name)}/files/${f}`}>{f}</a>
            </li>
          ))}
        </ul>
      </details>
    </StudioPage>
  );
}

/** The answer when the store has no capture in force at the moment asked for. */
export function NoCapturePage({ session, at, first }: { session: Session; at: string; first: CaptureEntry | undefined }) {
  return (
    <StudioPage title="Records: no capture" session={session}>
      <h1>The site as of {dateWritten(at, true)}</h1>
      <p className="message note" role="status" data-as-of="">
        {first ? (
          <>
            The store has no capture on or before {dateWritten(at, true)}: the first capture is from{" "}
            <a href={captureUrl(first.name)}>{dateWritten(first.time, true)}</a>.
          </>
        ) : (
          "The store has no capture yet."
        )}
      </p>
      <p>
        <a href="/admin/records">All records</a>
      </p>
    </StudioPage>
  );
}
