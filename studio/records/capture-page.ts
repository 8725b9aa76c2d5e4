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
import { html, studioPage, type Markup } from "../pages/layout.ts";
import { approverLine, commitLine, dateWritten, editorsLine, timeSource } from "./format.ts";
import { KIND_WORDS } from "../../lib/records/wording.ts";
import type { Overlays } from "./replay-overlays.ts";
import type { Recorded } from "./replay.ts";
import { captureUrl, changesOf, driftOf } from "./timeline.ts";

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
function overlaysToggle(view: CaptureView): Markup {
  const other = pageLink(view.entry.name, view.page, view.asOf?.at, view.replay.overlays === "closed" ? "shown" : "closed");
  return view.replay.overlays === "closed"
    ? html`<p data-overlays="closed">
        The replay shows the page with its overlays closed, as the capture's visitor closed them: Reject All on the cookie banner, then the
        popup's Close. <a href="${other}">Show it as a first visit saw it</a>, banner and popup included.
      </p>`
    : html`<p data-overlays="shown">
        The replay shows the page as a first visit saw it, cookie banner and popup included.
        <a href="${other}">Show it with the overlays closed</a>, as the capture's visitor closed them (Reject All, then the popup's Close).
      </p>`;
}

function asOfBanner(view: CaptureView): Markup {
  const { asOf, entry, next } = view;
  if (!asOf) return html``;
  return html`<p class="message note" role="status" data-as-of>
    As of ${dateWritten(asOf.at, true)}, the site was as captured on <strong>${dateWritten(entry.time, true)}</strong>.
    ${next ? html`The next capture is from <a href="${captureUrl(next.name)}">${dateWritten(next.time, true)}</a>.` : "It is the latest capture."}
    ${
      asOf.dayOnly && asOf.sameDay.length > 1
        ? html`The site was captured ${asOf.sameDay.length} times that day; this is the last of them.`
        : ""
    }
  </p>`;
}

function verification(view: CaptureView): Markup {
  const { entry } = view;
  const lines = entry.complete ? entry.lines : [{ label: "Capture complete", ok: false, text: entry.missing ?? "", problems: [] }];
  return html`<section aria-labelledby="verification">
    <h2 id="verification">Verification</h2>
    <p class="meta" data-checked>
      Recomputed from the stored files on ${dateWritten(entry.checkedAt, true)}, and again whenever a stored file changes.
      <a href="${captureUrl(entry.name)}?check=now&amp;page=${encodeURIComponent(view.page)}">Check every file again now</a>
    </p>
    <ul class="checks">
      ${lines.map(
        (l) =>
          html`<li class="${l.ok ? "good" : "bad"}">
            <strong>${l.ok ? "✓" : "✗"} ${l.label}:</strong> ${l.text}
            ${
              l.problems.length > 1
                ? html`<ul>
                    ${l.problems.slice(1).map((p) => html`<li>${p}</li>`)}
                  </ul>`
                : ""
            }
          </li>`,
      )}
      ${
        view.writeOnce
          ? ""
          : html`<li class="bad">
              <strong>✗ Write-once storage:</strong> kept in ${view.storeLabel}, which anyone with access to it can change.
            </li>`
      }
    </ul>
  </section>`;
}

function pageSection(view: CaptureView): Markup {
  const { entry } = view;
  const page = entry.pages.find((p) => p.path === view.page);
  if (!page) return html`<p>This capture has no page at ${view.page}.</p>`;
  const approval = entry.approvals.find((a) => a.page === page.path);
  const editors = editorsLine(approval);
  const base = captureUrl(entry.name);
  const replayed = `${view.replay.root}${page.path === "/404" ? "/no-such-page" : page.path}`;
  const drifted = page.approvedSha256 !== page.textSha256;
  return html`<section aria-labelledby="page-heading" data-page="${page.path}">
    <h2 id="page-heading">${page.title}</h2>
    <p>
      ${approval ? html`Approved by ${approverLine(approval)}` : "No approval is recorded for this page"}${editors ? html`; edited by ${editors}` : ""}.
      ${
        drifted
          ? html`<strong class="drift">✗ The live page's words were not the approved words when captured.</strong>`
          : html`The captured words are the approved words.`
      }
    </p>
    <div class="frames records">
      <figure>
        <figcaption>As printed when captured (PDF) · <a href="${base}/pdf/${page.pdf.replace(/^pdf\//, "")}">Open the PDF</a></figcaption>
        <iframe
          tabindex="-1"
          title="${page.title}, printed when captured (PDF)"
          src="${base}/pdf/${page.pdf.replace(/^pdf\//, "")}"
        ></iframe>
      </figure>
      <figure>
        <figcaption>
          Replayed from the web archive, as served ·
          <a href="${replayed}">Open the replay</a>
        </figcaption>
        <iframe sandbox="allow-scripts" tabindex="-1" title="${page.title}, replayed as served" src="${replayed}"></iframe>
      </figure>
    </div>
    ${overlaysToggle(view)}
    <details>
      <summary>Technical details of this page</summary>
      <p>
        Address <code>${page.url}</code>, status ${page.status}. SHA-256 of its HTML <code>${page.htmlSha256}</code>, of its text
        <code>${page.textSha256}</code>${approval ? html`, approved text <code>${approval.sha256}</code>` : ""}.
      </p>
      ${
        view.recorded
          ? html`<p>
                The response as recorded (the replay leaves out headers that would act on the studio: HSTS, cookies, caching, framing
                refusals, reporting; points every address the page names into the replay, its third parties' included; and answers what the
                capture did not record as not archived, never from the network):
              </p>
              <pre>
${`HTTP ${view.recorded.status} ${view.recorded.statusText}\n${view.recorded.headers.map(([n, v]) => `${n}: ${v}`).join("\n")}`}</pre>`
          : ""
      }
    </details>
  </section>`;
}

export function capturePage(session: Session, view: CaptureView) {
  const { entry, previous, next } = view;
  const at = view.asOf?.at;
  const drifted = driftOf(entry);
  const body = html`<h1>The site as captured on ${dateWritten(entry.time, true)}</h1>
    ${asOfBanner(view)}
    <p class="meta">
      ${KIND_WORDS[entry.kind]}${entry.origin ? html` of ${entry.origin}` : ""} ·
      ${timeSource(entry)}${entry.timeSource === "tsa" ? "" : ` (${dateWritten(entry.createdAt, true)})`}
    </p>
    ${commitLine(entry)}
    <nav aria-label="Other captures" class="actions">
      ${previous ? html`<a href="${captureUrl(previous.name)}">← The capture before (${dateWritten(previous.time)})</a>` : ""}
      ${next ? html`<a href="${captureUrl(next.name)}">The capture after (${dateWritten(next.time)}) →</a>` : html`<span>The latest capture</span>`}
      ${previous ? html`<a href="/admin/records/compare?a=${previous.name}&amp;b=${entry.name}">Compare with the capture before</a>` : ""}
      <a href="/admin/records">All records</a>
    </nav>
    ${verification(view)}
    ${
      drifted.length
        ? html`<p class="message error" data-state="drift">
            The live site's words differed from the approved text on ${drifted.map((p) => p.title).join(", ")} when this was captured.
          </p>`
        : ""
    }
    ${
      entry.complete
        ? html`<section aria-labelledby="changes">
              <h2 id="changes">What changed</h2>
              ${changesOf(entry, previous)}
            </section>
            <nav aria-label="Pages of this capture">
              <h2>Pages</h2>
              <ul class="pages">
                ${entry.pages.map(
                  (p) =>
                    html`<li>
                      <a
                        href="${pageLink(entry.name, p.path, at, view.replay.overlays)}"
                        ${p.path === view.page ? html`aria-current="page"` : ""}
                        >${p.title}</a
                      >
                    </li>`,
                )}
              </ul>
            </nav>
            ${pageSection(view)}`
        : ""
    }
    <details>
      <summary>Technical details</summary>
      <p>
        Capture <code>${entry.name}</code> in
        ${view.storeLabel}${entry.commit ? html`, built from commit <code>${entry.commit}</code>` : ""}.
        ${entry.manifestSha256 ? html`SHA-256 of ${MANIFEST}: <code>${entry.manifestSha256}</code>.` : ""}
      </p>
      <ul>
        ${[MANIFEST, `${MANIFEST}.sha256`, TIMESTAMP_TOKEN].map((f) => html`<li><a href="${captureUrl(entry.name)}/files/${f}">${f}</a></li>`)}
      </ul>
    </details>`;
  return studioPage(`Records: ${dateWritten(entry.time)}`, body, { session });
}

/** The answer when the store has no capture in force at the moment asked for. */
export function noCapturePage(session: Session, at: string, first: CaptureEntry | undefined) {
  const body = html`<h1>The site as of ${dateWritten(at, true)}</h1>
    <p class="message note" role="status" data-as-of>
      ${
        first
          ? html`The store has no capture on or before ${dateWritten(at, true)}: the first capture is from
              <a href="${captureUrl(first.name)}">${dateWritten(first.time, true)}</a>.`
          : "The store has no capture yet."
      }
    </p>
    <p><a href="/admin/records">All records</a></p>`;
  return studioPage("Records: no capture", body, { session });
}
