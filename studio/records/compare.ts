/**
 * Compare two captures (`/admin/records/compare?a=…&b=…`): for each page, whether its words changed and,
 * where they did, the changed words in plain words (the review's word diff) and both renderings side by
 * side with the changes marked (the review's sandboxed frames: no script, nothing fetched).
 */
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { decodeBody } from "../../lib/records/manifest.ts";
import { changedWithContext, diffRows, readableLines } from "../../lib/words.ts";
import type { Session } from "../auth/sessions.ts";
import { html, studioPage } from "../pages/layout.ts";
import { markedPages } from "../pages/marks.ts";
import { rowsHtml } from "../pages/review.ts";
import { dateWritten } from "./format.ts";
import type { ReplayCache } from "./replay.ts";
import { captureUrl } from "./timeline.ts";

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

const option = (entry: CaptureEntry, chosen?: string) =>
  html`<option value="${entry.name}" ${entry.name === chosen ? "selected" : ""}>${dateWritten(entry.time, true)}</option>`;

export async function comparePage(
  session: Session,
  entries: CaptureEntry[],
  cache: ReplayCache,
  pair?: { a: CaptureEntry; b: CaptureEntry },
  /** Why the captures asked for cannot be compared: shown above the form. */
  problem?: string,
) {
  const complete = [...entries].filter((e) => e.complete).reverse();
  const form = html`<form method="get" action="/admin/records/compare" class="inline">
    <label for="a">Earlier capture</label>
    <select id="a" name="a">
      ${complete.map((e) => option(e, pair?.a.name ?? complete[1]?.name))}
    </select>
    <label for="b">Later capture</label>
    <select id="b" name="b">
      ${complete.map((e) => option(e, pair?.b.name ?? complete[0]?.name))}
    </select>
    <button type="submit">Compare</button>
  </form>`;
  if (!pair)
    return studioPage(
      "Compare captures",
      html`<h1>Compare two captures</h1>
        ${problem ? html`<p role="alert" class="message error">${problem}</p>` : ""} ${form}`,
      { session },
    );
  const { a, b } = pair;
  const paths = [...new Set([...a.pages.map((p) => p.path), ...b.pages.map((p) => p.path)])];
  const titleOf = (path: string) => (b.pages.find((p) => p.path === path) ?? a.pages.find((p) => p.path === path))!.title;
  const same = paths.filter(
    (path) => a.pages.find((p) => p.path === path)?.textSha256 === b.pages.find((p) => p.path === path)?.textSha256,
  );
  const changed = paths.filter((path) => !same.includes(path));
  const frame = (path: string, side: "a" | "b", label: string) =>
    html`<figure>
      <figcaption>
        ${label} ·
        <a
          href="/admin/records/compare/frame?a=${a.name}&amp;b=${b.name}&amp;page=${encodeURIComponent(path)}&amp;side=${side}#studio-change"
          >Open this page alone</a
        >
      </figcaption>
      <div class="frame-box">
        <iframe
          sandbox
          tabindex="-1"
          title="${titleOf(path)}: ${label}"
          src="/admin/records/compare/frame?a=${a.name}&amp;b=${b.name}&amp;page=${encodeURIComponent(path)}&amp;side=${side}#studio-change"
        ></iframe>
      </div>
    </figure>`;
  const sections = await Promise.all(
    changed.map(async (path) => {
      const [before, after] = await Promise.all([recordedPage(cache, a, path), recordedPage(cache, b, path)]);
      const rows = changedWithContext(diffRows(readableLines(before), readableLines(after)));
      return html`<section data-page="${path}">
        <h2>${titleOf(path)}</h2>
        <h3>The changed words</h3>
        <div class="diff">${rowsHtml(rows)}</div>
        <div class="frames desktop">
          ${before ? frame(path, "a", `On ${dateWritten(a.time)}`) : html`<p>Not in the earlier capture.</p>`}
          ${after ? frame(path, "b", `On ${dateWritten(b.time)}`) : html`<p>Not in the later capture.</p>`}
        </div>
      </section>`;
    }),
  );
  const body = html`<h1>Compare two captures</h1>
    ${form}
    <p>
      From <a href="${captureUrl(a.name)}">${dateWritten(a.time, true)}</a> to
      <a href="${captureUrl(b.name)}">${dateWritten(b.time, true)}</a>:
      ${changed.length ? `${changed.length} page${changed.length === 1 ? "'s" : "s'"} words changed.` : "no page's words changed."}
      ${same.length ? html`Unchanged: ${same.map(titleOf).join(", ")}.` : ""}
    </p>
    ${sections}`;
  return studioPage("Compare captures", body, { session });
}
