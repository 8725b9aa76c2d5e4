/**
 * What `npm run archive` writes and `npm run archive:verify` checks: the manifest's shape, file
 * hashing and the decoding of a recorded HTTP body (shared by both scripts and their test).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { z } from "zod";

export const MANIFEST = "manifest.json";
/** `sha256sum -c` reads it: "<hex>  manifest.json". Written last, so the manifest cannot list it. */
export const MANIFEST_SHA256 = "manifest.json.sha256";
/** The unknown path asked for to record the not-found page. */
export const UNKNOWN_PATH = "/no-such-page";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.strictObject({
  format: z.literal("site-archive/1"),
  /** The full git commit the build was made from, and whether the work tree had uncommitted changes. */
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  uncommittedChanges: z.boolean(),
  /** When the capture started (ISO 8601, UTC). */
  createdAt: z.iso.datetime(),
  /** Where the production build was served during the capture, and the public address it is built for. */
  origin: z.url(),
  siteUrl: z.url(),
  browser: z.string(),
  warc: z.string(),
  pages: z.array(
    z.strictObject({
      path: z.string(),
      url: z.url(),
      status: z.number().int(),
      /** SHA-256 of the HTML as the browser read it (after content decoding), and of its approved text. */
      htmlSha256: sha256,
      textSha256: sha256,
      pdf: z.string(),
    }),
  ),
  approvals: z.array(z.strictObject({ page: z.string(), sha256, approvedBy: z.string(), approvedOn: z.iso.datetime() })),
  /** Third-party requests the page made during the capture, refused so that nothing left the machine. */
  blockedRequests: z.array(z.string()),
  files: z.array(z.strictObject({ path: z.string(), bytes: z.number().int().nonnegative(), sha256 })),
});

export type Manifest = z.infer<typeof manifestSchema>;

import { sha256Hex } from "../integrations/hash.ts";

/** Every file under a folder, as paths relative to it with "/" separators, sorted. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

export const hashFile = (file: string) => sha256Hex(readFileSync(file));

/** The body a browser reads from a recorded one: content codings undone, in the order they were applied. */
export function decodeBody(body: Uint8Array, contentEncoding: string | null | undefined): Buffer {
  let data = Buffer.from(body);
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== "identity");
  for (const coding of codings.reverse()) {
    if (coding === "br") data = brotliDecompressSync(data);
    else if (coding === "gzip" || coding === "x-gzip") data = gunzipSync(data);
    else if (coding === "deflate") data = inflateSync(data);
    else if (coding === "zstd") data = zstdDecompressSync(data);
    else throw new Error(`unknown content coding "${coding}"`);
  }
  return data;
}

/** A folder name from a UTC time, ISO 8601 basic format: folders sort by time, and no ":" for Windows. */
export const folderName = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");

/** "/" → "index", "/privacy-policy" → "privacy-policy". */
export const pageFileStem = (page: string) => (page === "/" ? "index" : page.slice(1).replace(/\//g, "_"));
