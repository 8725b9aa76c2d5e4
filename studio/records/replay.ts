/**
 * A capture replayed from its WARC by the studio itself (decisions 0028 and 0047): every URL the capture
 * recorded, the site's and the third parties' it asked for, is answered under the replay's root
 * (`/admin/records/capture/<name>/replay/<pass>/…`) with the recorded status, headers and body, in a
 * sandboxed frame (an opaque origin: its scripts run, but reach neither the studio's cookies nor its
 * pages) sealed by the studio's policy: nothing is fetched from anywhere else, and an address the
 * capture did not record is answered as not archived (a page of the site by the capture's own 404 page).
 * The changes made, which the capture page names: the addresses a page names are pointed into the
 * replay (replay-rewrite.ts), and the headers that would act on the studio instead of the page (HSTS,
 * cookies, caching, framing refusals, reporting) are left out. Every answer says where it came from:
 * `X-Replay: archived` with the recorded `Memento-Datetime` (RFC 7089), or `X-Replay: not archived`.
 */
import { decodeBody, UNKNOWN_PATH } from "../../lib/records/manifest.ts";
import type { ArchiveStore } from "../../lib/records/store.ts";
import { readWarc } from "../../lib/records/warc-read.ts";
import type { FirstScript } from "./replay-overlays.ts";
import { pointInto, recordedPolicy, recordedUrlOf, rewriteHtml, sealPolicy, type ReplayPlace } from "./replay-rewrite.ts";

export interface Recorded {
  status: number;
  statusText: string;
  /** Header lines exactly as recorded (names, case, order, repeats). */
  headers: Array<[string, string]>;
  /** The body as transferred (still brotli- or gzip-encoded where it was). */
  body: Buffer;
  /** When it was recorded (the record's WARC-Date). */
  date: string;
}

/** Headers that would act on the studio or refuse the frame, not describe the page. */
const LEFT_OUT = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "set-cookie",
  "strict-transport-security",
  "alt-svc",
  "clear-site-data",
  "x-frame-options",
  "report-to",
  "reporting-endpoints",
  "nel",
  "cache-control",
  "expires",
]);

/** Every response of a WARC by URL (the first recorded for each), read by lib/records/warc-read.ts. */
export async function readResponses(warc: Buffer): Promise<Map<string, Recorded>> {
  const responses = new Map<string, Recorded>();
  for await (const record of readWarc(warc)) {
    if (record.type !== "response" || !record.http || responses.has(record.url)) continue;
    const { status, statusText, headers, payload } = record.http;
    responses.set(record.url, { status, statusText, headers, body: payload, date: record.date });
  }
  return responses;
}

/** A few captures' responses kept in memory: a replay asks for a page and its assets in a burst. */
export class ReplayCache {
  readonly #store: ArchiveStore;
  readonly #kept = new Map<string, Promise<Map<string, Recorded>>>();
  constructor(store: ArchiveStore) {
    this.#store = store;
  }

  responses(capture: string, warc: string): Promise<Map<string, Recorded>> {
    let found = this.#kept.get(capture);
    if (!found) {
      found = this.#store
        .read(capture, warc)
        .then((bytes) => (bytes ? readResponses(bytes) : new Map<string, Recorded>()))
        // A store that failed is asked again at the next request, not remembered as failed.
        .catch((error: unknown) => {
          this.#kept.delete(capture);
          throw error;
        });
      this.#kept.set(capture, found);
      if (this.#kept.size > 4) this.#kept.delete(this.#kept.keys().next().value!);
    }
    return found;
  }
}

/** What one request of the replay asks for. */
export interface ReplayRequest {
  /** The path under the replay's root, with its query, as the browser sent it. */
  path: string;
  /** The request loads a document (the frame itself, or a frame in it), not a part of one. */
  document: boolean;
  /** The document is a frame that a replayed page opened (not the studio's page). */
  framedByReplay: boolean;
  /** The replay's own first script in an HTML page's head (its focus guard, and the overlays closed in that view). */
  first?: FirstScript;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The answer for an address the capture never recorded: the studio's, in the replay's own words. */
function notArchived(url: string, place: ReplayPlace, framedByReplay: boolean): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not archived</title></head>
<body><p>Not archived: this capture holds no answer for ${escapeHtml(url)}, so the replay shows nothing in its place.</p></body></html>\n`;
  return new Response(body, {
    status: 404,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": sealPolicy(place, framedByReplay),
      "X-Replay": "not archived",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}

/** The answer to one replayed URL: as recorded, or not archived. */
export function replay(responses: Map<string, Recorded>, place: ReplayPlace, request: ReplayRequest): Response {
  const url = recordedUrlOf(request.path, place);
  const recorded = url === undefined ? undefined : responses.get(url);
  // A page of the site the capture never saw: the site's own answer to an unknown address, as recorded.
  const ownMissing =
    !recorded && request.document && url?.startsWith(`${place.origin}/`) ? responses.get(`${place.origin}${UNKNOWN_PATH}`) : undefined;
  const found = recorded ?? ownMissing;
  if (!found || url === undefined) return notArchived(url ?? request.path, place, request.framedByReplay);
  const pageUrl = recorded ? url : `${place.origin}${UNKNOWN_PATH}`;
  const { first } = request;
  const headers = new Headers();
  const type = found.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
  const encoding = found.headers.find(([n]) => n.toLowerCase() === "content-encoding")?.[1];
  const isHtml = /^text\/html\b/i.test(type);
  for (const [name, value] of found.headers) {
    const lower = name.toLowerCase();
    if (LEFT_OUT.has(lower) || lower.startsWith("x-archive-orig-") || (isHtml && lower === "content-encoding")) continue;
    if (lower === "content-security-policy") {
      const kept = recordedPolicy(value, pageUrl, place, isHtml ? first?.hash : undefined);
      if (kept) headers.append(name, kept);
    } else if (lower === "location") headers.append(name, pointInto(value, pageUrl, place));
    else headers.append(name, value);
  }
  headers.append("Content-Security-Policy", sealPolicy(place, request.framedByReplay));
  // The frame's origin is opaque: its module scripts and images are cross-origin requests to the studio.
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Cross-Origin-Resource-Policy", "cross-origin");
  headers.set("X-Replay", recorded ? "archived" : "not archived");
  if (recorded?.date) headers.set("Memento-Datetime", new Date(recorded.date).toUTCString());
  const body = isHtml
    ? rewriteHtml(decodeBody(found.body, encoding).toString("utf8"), pageUrl, place, first?.element)
    : new Uint8Array(found.body);
  return new Response(found.status === 304 || found.status === 204 ? null : body, {
    status: found.status,
    statusText: found.statusText,
    headers,
  });
}
