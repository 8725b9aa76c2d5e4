/**
 * A capture replayed from its WARC by the studio itself (decision 0028): every URL the capture recorded
 * is answered under `/admin/records/capture/<name>/replay/…` with the recorded status, headers and body,
 * in a sandboxed frame (an opaque origin: its scripts run, but can reach neither the studio's cookies
 * nor its pages). Nothing is fetched from anywhere else: a URL the capture did not record gets the
 * capture's own 404 page. Two changes are made, and the capture page says so: the page's own links
 * (root-relative, or to its origin) are pointed into the replay, and the headers that would act on the
 * studio instead of the page (HSTS, cookies, framing refusals, reporting) are left out.
 */
import { Readable } from "node:stream";
import { toHtml } from "hast-util-to-html";
import { WARCParser } from "warcio";
import type { Element, Root, RootContent } from "hast";
import { parseHtml } from "../../lib/html.ts";
import { decodeBody, UNKNOWN_PATH } from "../../lib/records/manifest.ts";
import type { ArchiveStore } from "../../lib/records/store.ts";

export interface Recorded {
  status: number;
  statusText: string;
  /** Header lines exactly as recorded (names, case, order, repeats). */
  headers: Array<[string, string]>;
  /** The body as transferred (still brotli- or gzip-encoded where it was). */
  body: Buffer;
}

const CRLFCRLF = Buffer.from("\r\n\r\n");
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
]);
const CSP_LEFT_OUT = new Set(["frame-ancestors", "upgrade-insecure-requests", "report-uri", "report-to", "sandbox"]);
/** The studio's own policy on top of the page's: an opaque origin, no connections, no forms, framed by the studio only. */
export const REPLAY_CSP = "sandbox allow-scripts; frame-ancestors 'self'; connect-src 'none'; form-action 'none'; base-uri 'none'";
const URL_ATTRIBUTES = ["href", "src", "srcSet", "action", "poster", "component-url", "renderer-url", "before-hydration-url"];

/** Every response of a WARC by URL (the first recorded for each). */
export async function readResponses(warc: Buffer): Promise<Map<string, Recorded>> {
  const responses = new Map<string, Recorded>();
  for await (const record of new WARCParser(Readable.from([warc]), { parseHttp: false })) {
    if (record.warcType !== "response") continue;
    const url = record.warcTargetURI ?? "";
    const block = Buffer.from(await record.readFully(false));
    const end = block.indexOf(CRLFCRLF);
    const [statusLine = "", ...lines] = block
      .subarray(0, end < 0 ? block.length : end)
      .toString("latin1")
      .split("\r\n");
    const [, code = "0", ...text] = statusLine.split(" ");
    const headers = lines.map((l): [string, string] => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]);
    if (!responses.has(url))
      responses.set(url, {
        status: Number(code),
        statusText: text.join(" "),
        headers,
        body: end < 0 ? Buffer.alloc(0) : block.subarray(end + 4),
      });
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
      found = this.#store.read(capture, warc).then((bytes) => (bytes ? readResponses(bytes) : new Map()));
      this.#kept.set(capture, found);
      if (this.#kept.size > 4) this.#kept.delete(this.#kept.keys().next().value!);
    }
    return found;
  }
}

function pointInto(value: string, origin: string, prefix: string): string {
  const own = value.startsWith(origin) ? value.slice(origin.length) || "/" : value;
  return own.startsWith("/") && !own.startsWith("//") ? `${prefix}${own}` : value;
}

/** The page with its own links pointed into the replay; scripts and styles untouched (their CSP hashes still hold). */
export function rewriteHtml(html: string, origin: string, prefix: string): string {
  const tree = parseHtml(html);
  const walk = (node: Root | Element) => {
    for (const child of node.children as RootContent[]) {
      if (child.type !== "element") continue;
      for (const name of URL_ATTRIBUTES) {
        const value = child.properties[name];
        if (typeof value === "string")
          child.properties[name] =
            name === "srcSet"
              ? value
                  .split(",")
                  .map((part) => part.trim().replace(/^\S+/, (url) => pointInto(url, origin, prefix)))
                  .join(", ")
              : pointInto(value, origin, prefix);
      }
      walk(child);
    }
  };
  walk(tree);
  return toHtml(tree, { allowDangerousHtml: true });
}

/** The recorded CSP without what would refuse the frame or report elsewhere. */
const keptPolicy = (value: string) =>
  value
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d && !CSP_LEFT_OUT.has(d.split(/\s+/)[0]!.toLowerCase()))
    .join("; ");

/** The answer to one replayed URL: as recorded, or the capture's own 404 page for one it never saw. */
export function replay(responses: Map<string, Recorded>, origin: string, path: string, prefix: string): Response {
  const found = responses.get(`${origin}${path}`) ?? responses.get(`${origin}${UNKNOWN_PATH}`);
  if (!found)
    return new Response("This capture recorded no such address.\n", { status: 404, headers: { "Content-Security-Policy": REPLAY_CSP } });
  const headers = new Headers();
  const type = found.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
  const encoding = found.headers.find(([n]) => n.toLowerCase() === "content-encoding")?.[1];
  const isHtml = /^text\/html\b/i.test(type);
  for (const [name, value] of found.headers) {
    const lower = name.toLowerCase();
    if (LEFT_OUT.has(lower) || lower.startsWith("x-archive-orig-") || (isHtml && lower === "content-encoding")) continue;
    if (lower === "content-security-policy") {
      const kept = keptPolicy(value);
      if (kept) headers.append(name, kept);
    } else headers.append(name, value);
  }
  headers.append("Content-Security-Policy", REPLAY_CSP);
  // The frame's origin is opaque: its module scripts and images are cross-origin requests to the studio.
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Cross-Origin-Resource-Policy", "cross-origin");
  const body = isHtml ? rewriteHtml(decodeBody(found.body, encoding).toString("utf8"), origin, prefix) : new Uint8Array(found.body);
  return new Response(found.status === 304 || found.status === 204 ? null : body, {
    status: found.status,
    statusText: found.statusText,
    headers,
  });
}
