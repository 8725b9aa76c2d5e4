/**
 * Compare two captures (`/admin/records/compare?a=…&b=…`): for each page, whether its words changed and,
 * where they did, the changed words in plain words (the review's word diff) and both renderings side by
 * side with the changes marked (the review's sandboxed frames: no script, nothing fetched).
 */
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { decodeBody } from "../../lib/records/manifest.ts";
import { changedWithContext, diffRows, readableLines } from "../../lib/words.ts";
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "../pages/studio-page.tsx";
import { markedPages } from "../pages/marks.ts";
import { WordRows } from "../pages/word-rows.tsx";
import { dateWritten } from "./format.ts";
import type { ReplayCache } from "./replay.ts";
import { captureUrl } from "./timeline.tsx";

/** The HTML a capture recorded for one of its pages, as a browser read it; "" when it has none. */
export async function recordedPage(cache: ReplayCache, entry: CaptureEntry, path: string): Promise<string> {
  const page = entry.pages.find((p) => p.path === path);
  const found = page && entry.warc && (await cache.responses(entry.name, entry.warc)).get(page.url);
  if (!found) return "";
  const encoding = found.headers.find(([n]) => n.toLowerCase() === "content-encoding")?.[1];
  return decodeBody(found.body, encoding).toString("utf8");
}

/** One side of a compared page, with its side of the change marked. */
export async function compareFrame(cache: ReplayCache, a: CaptureEntry, b: CaptureEntry, path: string, side: "a" | "b") {
  const [before, after] = await Promise.all([recordedPage(cache, a, path), recordedPage(cache, b, path)]);
  if (!(side === "a" ? before : after)) return undefined;
  const marked = markedPages(before || "<!doctype html><html><head></head><body></body></html>", after);
  return side === "a" ? marked.approved : marked.entry;
}

export interface CompareProps {
  session: Session;
  entries: CaptureEntry[];
  /** The two captures compared, each page's words and renderings; none: the form alone. */
  compared?: { a: CaptureEntry; b: CaptureEntry; sections: ComparedPage[] };
  /** Why the captures asked for cannot be compared: shown above the form. */
  problem?: string;
}

/** A page whose words differ between the two captures, with its HTML in each ("" where it has none). */
export interface ComparedPage {
  path: string;
  before: string;
  after: string;
}

/** The pages whose words changed from `a` to `b`, read from their WARCs; those unchanged are named by the page. */
export async function comparedPages(cache: ReplayCache, a: CaptureEntry, b: CaptureEntry): Promise<ComparedPage[]> {
  return Promise.all(
    changedPaths(a, b).changed.map(async (path) => {
      const [before, after] = await Promise.all([recordedPage(cache, a, path), recordedPage(cache, b, path)]);
      return { path, before, after };
    }),
  );
}

function changedPaths(a: CaptureEntry, b: CaptureEntry) {
  const paths = [...new Set([...a.pages.map((p) => p.path), ...b.pages.map((p) => p.path)])];
  const same = paths.filter(
    (path) => a.pages.find((p) => p.path === path)?.textSha256 === b.pages.find((p) => p.path === path)?.textSha256,
  );
  return { same, changed: paths.filter((path) => !same.includes(path)) };
}

function CaptureSelect({ id, label, complete, chosen }: { id: "a" | "b"; label: string; complete: CaptureEntry[]; chosen?: string }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={id} defaultValue={chosen}>
        {complete.map((e) => (
          <option key={e.name} value={e.name}>
            {dateWritten(e.time, true)}
          </option>
        ))}
      </select>
    </>
  );
}

function Frame({
  a,
  b,
  path,
  side,
  label,
  title,
}: {
  a: CaptureEntry;
  b: CaptureEntry;
  path: string;
  side: "a" | "b";
  label: string;
  title: string;
}) {
  const src = `/admin/records/compare/frame?a=${a.name}&b=${b.name}&page=${encodeURIComponent(path)}&side=${side}#studio-change`;
  return (
    <figure>
      <figcaption>
        {label} · <a href={src}>Open this page alone</a>
      </figcaption>
      <div className="frame-box">
        <iframe sandbox="" tabIndex={-1} title={`${title}: ${label}`} src={src}></iframe>
      </div>
    </figure>
  );
}

export function ComparePage({ session, entries, compared, problem }: CompareProps) {
  const complete = [...entries].filter((e) => e.complete).reverse();
  const form = (
    <form method="get" action="/admin/records/compare" className="inline">
      <CaptureSelect id="a" label="Earlier capture" complete={complete} chosen={compared?.a.name ?? complete[1]?.name} />
      <CaptureSelect id="b" label="Later capture" complete={complete} chosen={compared?.b.name ?? complete[0]?.name} />
      <button type="submit">Compare</button>
    </form>
  );
  if (!compared)
    return (
      <StudioPage title="Compare captures" session={session}>
        <h1>Compare two captures</h1>
        {problem ? (
          <p role="alert" className="message error">
            {problem}
          </p>
        ) : null}{" "}
        {form}
      </StudioPage>
    );
  const { a, b, sections } = compared;
  const titleOf = (path: string) => (b.pages.find((p) => p.path === path) ?? a.pages.find((p) => p.path === path))!.title;
  const { same, changed } = changedPaths(a, b);
  return (
    <StudioPage title="Compare captures" session={session}>
      <h1>Compare two captures</h1>
      {form}
      <p>
        From <a href={captureUrl(a.name)}>{dateWritten(a.time, true)}</a> to <a href={captureUrl(b.name)}>{dateWritten(b.time, true)}</a>:{" "}
        {changed.length ? `${changed.length} page${changed.length === 1 ? "'s" : "s'"} words changed.` : "no page's words changed."}{" "}
        {same.length ? `Unchanged: ${same.map(titleOf).join(", ")}.` : null}
      </p>
      {sections.map(({ path, before, after }) => (
        <section key={path} data-page={path}>
          <h2>{titleOf(path)}</h2>
          <h3>The changed words</h3>
          <div className="diff">
            <WordRows rows={changedWithContext(diffRows(readableLines(before), readableLines(after)))} />
          </div>
          <div className="frames desktop">
            {before ? (
              <Frame a={a} b={b} path={path} side="a" label={`On ${dateWritten(a.time)}`} title={titleOf(path)} />
            ) : (
              <p>Not in the earlier capture.</p>
            )}{" "}
            {after ? (
              <Frame a={a} b={b} path={path} side="b" label={`On ${dateWritten(b.time)}`} title={titleOf(path)} />
            ) : (
              <p>Not in the later capture.</p>
            )}
          </div>
        </section>
      ))}
    </StudioPage>
  );
}
