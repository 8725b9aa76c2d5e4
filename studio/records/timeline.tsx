/**
 * Records (`/admin/records`): every capture of the public site, newest first, with its time of record
 * (the TSA's where a token vouches for it), its kind, whether its files are intact as stored, the commit
 * its site was built from, and the pages whose words changed since the capture before, each with who
 * edited and who approved them. The "as of" form opens the capture in force at a moment; the export is
 * one link away.
 */
import { changedSince, type CaptureEntry } from "../../lib/records/catalog.ts";
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "../pages/studio-page.tsx";
import { approverLine, dateWritten, editorsLine, timeSource } from "./format.ts";
import { KIND_WORDS } from "../../lib/records/wording.ts";

export const PAGE_SIZE = 100;
export const captureUrl = (name: string) => `/admin/records/capture/${name}`;

/** The commit the captured site was built from, short, on every screen that names a capture; its full name waits in "Technical details". */
export function CommitLine({ entry }: { entry: CaptureEntry }) {
  if (!entry.commit) return null;
  return (
    <p className="meta" data-commit={entry.commit}>
      Built from commit <code>{entry.commit.slice(0, 12)}</code>
    </p>
  );
}

/** The verification of a capture in one line, or its problems, each naming a file. */
export function CaptureState({ entry }: { entry: CaptureEntry }) {
  if (!entry.complete)
    return (
      <p className="check bad" data-state="incomplete">
        <strong>✗ Incomplete:</strong> {entry.missing ?? "it has no manifest."}
      </p>
    );
  if (!entry.ok)
    return (
      <div className="check bad" data-state="altered">
        <p>
          <strong>✗ Not intact.</strong> What differs from the record:
        </p>
        <ul>
          {entry.problems.slice(0, 8).map((problem, i) => (
            <li key={i}>{problem}</li>
          ))}
          {entry.problems.length > 8 ? <li>and {entry.problems.length - 8} more</li> : null}
        </ul>
      </div>
    );
  return (
    <p className="check good" data-state="intact">
      <strong>✓ Intact:</strong> every file hashes as recorded{entry.timeSource === "tsa" ? "; its time is certified" : ""}
      {entry.certification && "certifiedAt" in entry.certification ? "; certified later by the Time Stamp Authority" : ""}.
    </p>
  );
}

/** Pages whose live text was not the approved text, by name. */
export const driftOf = (entry: CaptureEntry) => entry.pages.filter((p) => p.approvedSha256 !== p.textSha256);

/** What changed since the capture before: each page with who edited and approved its words. */
export function Changes({ entry, previous }: { entry: CaptureEntry; previous: CaptureEntry | undefined }) {
  if (!entry.complete) return null;
  const changed = changedSince(entry, previous);
  if (previous && changed.length === 0) return <p>No page's words changed since the capture before.</p>;
  return (
    <>
      <p>{previous ? "Words changed since the capture before:" : "The first capture in the store:"}</p>
      <ul className="changes">
        {changed.map((page) => {
          const approval = entry.approvals.find((a) => a.page === page.path);
          const editors = editorsLine(approval);
          if (page.approvedSha256 !== page.textSha256)
            return (
              <li key={page.path} data-page={page.path}>
                <strong>{page.title}</strong>: <span className="drift">✗ the live words were not the approved words</span>
                {approval ? ` (the approved words: approved by ${approverLine(approval)})` : null}
              </li>
            );
          return (
            <li key={page.path} data-page={page.path}>
              <strong>{page.title}</strong>
              {editors ? `: edited by ${editors}` : null}
              {approval ? `; approved by ${approverLine(approval)}` : "; no approval is recorded for it"}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Why a capture needs attention, in a few words. */
const why = (entry: CaptureEntry) =>
  !entry.complete
    ? "it never finished"
    : !entry.ok
      ? "what is stored does not match the record"
      : `the live text differed from the approved text on ${driftOf(entry)
          .map((p) => p.title)
          .join(", ")}`;

function Item({ entry, previous }: { entry: CaptureEntry; previous: CaptureEntry | undefined }) {
  const drifted = driftOf(entry);
  return (
    <li data-capture={entry.name}>
      <h3>
        <a href={captureUrl(entry.name)}>{dateWritten(entry.time, true)}</a>
      </h3>
      <p
        className="meta"
        data-time-source={entry.certification ? ("waiting" in entry.certification ? "waiting" : "certified-later") : entry.timeSource}
      >{`${KIND_WORDS[entry.kind]} · ${timeSource(entry)}`}</p>
      <CaptureState entry={entry} />
      {drifted.length ? (
        <p className="check bad" data-state="drift">
          <strong>✗ The live site differed from the approved text</strong> on {drifted.map((p) => p.title).join(", ")}.
        </p>
      ) : null}
      {entry.overdue?.length ? (
        <p className="check overdue" data-state="review-overdue">
          {`Overdue for review that day: ${entry.overdue
            .map((path) => entry.pages.find((p) => p.path === path)?.title ?? path)
            .sort()
            .join(", ")}.`}
        </p>
      ) : null}
      <CommitLine entry={entry} /> <Changes entry={entry} previous={previous} />
    </li>
  );
}

export interface TimelineProps {
  session: Session;
  entries: CaptureEntry[];
  /** The first capture shown is the newest before this name (the link to earlier captures). */
  before?: string;
  storeLabel: string;
  writeOnce: boolean;
}

export function TimelinePage({ session, entries, before, storeLabel, writeOnce }: TimelineProps) {
  const newestFirst = [...entries].reverse();
  const start = before ? newestFirst.findIndex((e) => e.name < before) : 0;
  const shown = start < 0 ? [] : newestFirst.slice(start, start + PAGE_SIZE);
  const previousOf = (entry: CaptureEntry) => entries[entries.indexOf(entry) - 1];
  const attention = entries.filter((e) => !e.complete || !e.ok || driftOf(e).length > 0);
  const older = start >= 0 && newestFirst[start + PAGE_SIZE];
  return (
    <StudioPage title="Records" session={session}>
      <h1>Records</h1>
      <p>
        What the public site said, captured {entries.length} time{entries.length === 1 ? "" : "s"}
        {entries.length ? ` from ${dateWritten(entries[0]!.time)} to ${dateWritten(entries.at(-1)!.time)}` : null}, kept{" "}
        {writeOnce ? `on write-once storage (${storeLabel})` : `in ${storeLabel}, which is not write-once storage`}.
      </p>
      <section aria-labelledby="as-of">
        <h2 id="as-of">The site as of a moment</h2>
        <form method="get" action="/admin/records" className="inline">
          <label htmlFor="at">Date and time, in UTC</label>
          <input id="at" name="at" type="datetime-local" step="1" required />
          <button type="submit">Show the site then</button>
        </form>
        <p>
          <a href="/admin/records/export">Export records for an examiner</a> · <a href="/admin/records/compare">Compare two captures</a>
        </p>
      </section>
      {attention.length ? (
        <section aria-labelledby="attention" className="message error">
          <h2 id="attention">
            {attention.length} capture{attention.length === 1 ? " needs" : "s need"} attention
          </h2>
          <ul>
            {attention.map((e) => (
              <li key={e.name}>
                <a href={captureUrl(e.name)}>{dateWritten(e.time, true)}</a>: {why(e)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline, newest first</h2>
        {entries.length === 0 ? (
          <p>
            No capture yet. <code>npm run records:capture</code> makes one; the deploy and the daily workflow make them in production.
          </p>
        ) : (
          <ol className="timeline">
            {shown.map((entry) => (
              <Item key={entry.name} entry={entry} previous={previousOf(entry)} />
            ))}
          </ol>
        )}
        {older ? (
          <p>
            <a href={`/admin/records?before=${shown.at(-1)!.name}`}>Earlier captures</a>
          </p>
        ) : null}
      </section>
    </StudioPage>
  );
}
