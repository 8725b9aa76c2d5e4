/**
 * What a capture holds and how it is named: the manifest's shape (format 1, written before the records
 * store existed, and format 2), the files beside it, file hashing and the decoding of a recorded HTTP
 * body. Shared by `npm run records:capture`, `records:verify`, the records store, the studio's records pages
 * and the examiner's export.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { z } from "zod";
import { sha256Hex } from "../hash.ts";
import { TEXT_RULES, type TextRule } from "../approval/text.ts";

export const MANIFEST = "manifest.json";
/** `sha256sum -c` reads it: "<hex>  manifest.json". Written after the manifest, so the manifest cannot list it. */
export const MANIFEST_SHA256 = "manifest.json.sha256";
/** The RFC 3161 timestamp token (DER) over the manifest's SHA-256, from the Time Stamp Authority. */
export const TIMESTAMP_TOKEN = "manifest.json.tsr";
/**
 * Written instead of the token when the Time Stamp Authority could not certify the capture as it was
 * made: the capture's time is not yet certified, and every later `npm run records:capture` asks again
 * (lib/records/certify.ts). It stays when the token comes: it records that the token came later.
 */
export const TIMESTAMP_PENDING = "manifest.json.tsr-pending";
/**
 * The capture as a WACZ (lib/records/wacz.ts), written at capture time after its manifest and token,
 * which it holds: so the manifest cannot list it. Its own digest, signature and trusted time cover it.
 */
export const CAPTURE_WACZ = "capture.wacz";
/** Added by an export beside each capture's stored files: who approved its pages. */
export const CAPTURE_APPROVALS = "approvals.json";
/** That file as a WACZ holds it: the approvals the capture's manifest recorded. */
export const approvalsFile = (capture: string, approvals: ManifestApproval[]) => `${JSON.stringify({ capture, approvals }, null, 2)}\n`;
/** The files a capture holds besides those its manifest lists. */
export const BESIDE_MANIFEST = [MANIFEST, MANIFEST_SHA256, TIMESTAMP_TOKEN, TIMESTAMP_PENDING, CAPTURE_WACZ] as const;
/** The unknown path asked for to record the not-found page. */
export const UNKNOWN_PATH = "/no-such-page";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const page = {
  path: z.string(),
  url: z.url(),
  status: z.number().int(),
  /** SHA-256 of the HTML as the browser read it (after content decoding), and of its text as the approval gate reads it. */
  htmlSha256: sha256,
  textSha256: sha256,
  pdf: z.string(),
};
const approval = { page: z.string(), sha256, approvedBy: z.string(), approvedOn: z.iso.datetime() };
const common = {
  /** The full git commit the build was made from, and whether the work tree had uncommitted changes. */
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  uncommittedChanges: z.boolean(),
  /** When the capture started (ISO 8601, UTC), by the capturing machine's clock. */
  createdAt: z.iso.datetime(),
  /** Where the production build was served during the capture, and the public address it is built for. */
  origin: z.url(),
  siteUrl: z.url(),
  browser: z.string(),
  warc: z.string(),
  /** Third-party requests the page made during the capture, refused so that nothing left the machine. */
  blockedRequests: z.array(z.string()),
  files: z.array(z.strictObject({ path: z.string(), bytes: z.number().int().nonnegative(), sha256 })),
};

const manifestV1 = z.strictObject({
  format: z.literal("site-archive/1"),
  ...common,
  pages: z.array(z.strictObject(page)),
  approvals: z.array(z.strictObject(approval)),
});

/** A person as the record names them. */
const person = z.strictObject({ name: z.string().min(1), email: z.string().min(1) });

const manifestV2 = z.strictObject({
  format: z.literal("site-archive/2"),
  /** `deploy`: captured as a deployment went live; `scheduled`: the daily capture of the live site. */
  kind: z.enum(["deploy", "scheduled"]),
  /**
   * The rule of the page text that `textSha256` is computed under (lib/approval/text.ts);
   * absent in captures made before link targets were part of the text: `page-text/1`.
   */
  textRule: z.enum(TEXT_RULES).optional(),
  ...common,
  pages: z.array(
    z.strictObject({
      ...page,
      /** Where the page sends the visitor and what it shows (rule 2 captures): each link's, image's and frame's name and address. */
      links: z
        .array(z.strictObject({ kind: z.enum(["link", "image", "frame", "island link"]), name: z.string(), target: z.string() }))
        .optional(),
      /** The page as people name it ("Privacy Policy", "Landing page"), from its heading when captured. */
      title: z.string().min(1),
      /** The text hash main's ledger approved for this page at `commit`; null when the ledger has none. Differs from textSha256 when the live site drifted. */
      approvedSha256: sha256.nullable(),
    }),
  ),
  /** The approvals in force at `commit` for the captured pages (FINRA Rule 2210(b)(4): the approver and the date). */
  approvals: z.array(
    z.strictObject({
      ...approval,
      /** The registered principal, as the roster named them when they approved in the studio. */
      principal: z.strictObject({ name: z.string(), crd: z.string(), email: z.string(), registration: z.string() }).optional(),
      /** The reviewed commit of the entry the principal approved (studio approvals). */
      commit: z
        .string()
        .regex(/^[0-9a-f]{40}$/)
        .optional(),
      /** Who wrote the approved change (the entry's commits' authors), when git history says. */
      editedBy: z.array(person).optional(),
    }),
  ),
  /**
   * The publish the capture's commit is (issue 56): the moment it went live (the publish commit's time),
   * who published it, the entry's approved head it carried out, and, for a publish a principal scheduled,
   * the scheduled instant and the firm's zone. Absent when the commit is no studio publish.
   */
  published: z
    .strictObject({
      wentLive: z.iso.datetime(),
      by: z.string().min(1),
      approval: z.string().regex(/^[0-9a-f]{40}$/),
      scheduledAt: z.iso.datetime().optional(),
      timeZone: z.string().min(1).optional(),
    })
    .optional(),
  /**
   * Each captured page's review on the capture's day in the firm's zone (issue 54, decision 0056): the
   * last review (the day, and the principal; or what it was counted from when none is recorded), the due
   * date under the review policy at `commit`, and whether it was overdue. Absent before reviews were kept.
   */
  reviews: z
    .array(
      z.strictObject({
        page: z.string(),
        lastReviewed: z.iso.date(),
        reviewedBy: z.string().nullable(),
        countedFrom: z.enum(["last updated", "first approval"]).optional(),
        due: z.iso.date(),
        status: z.enum(["overdue", "due soon", "ok"]),
      }),
    )
    .optional(),
});

export const manifestSchema = z.discriminatedUnion("format", [manifestV1, manifestV2]);
export const MANIFEST_FORMAT = "site-archive/2";

export type ManifestV1 = z.infer<typeof manifestV1>;
export type ManifestV2 = z.infer<typeof manifestV2>;
export type Manifest = z.infer<typeof manifestSchema>;
export type CaptureKind = ManifestV2["kind"];
export type ManifestApproval = ManifestV2["approvals"][number];
export type ManifestPublished = NonNullable<ManifestV2["published"]>;
export type ManifestReview = NonNullable<ManifestV2["reviews"]>[number];

/** Parses a manifest's bytes; throws one line naming the first bad field. */
export function parseManifest(bytes: Uint8Array | string): Manifest {
  const text = typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${MANIFEST} is not JSON (${error instanceof Error ? error.message : error})`, { cause: error });
  }
  const result = manifestSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${MANIFEST}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return result.data;
}

/** The rule of the page text a capture's `textSha256` values are computed under. */
export const textRuleOf = (manifest: Manifest): TextRule =>
  manifest.format === "site-archive/2" && manifest.textRule ? manifest.textRule : "page-text/1";

/** The kind a capture says it is; format 1 predates kinds (every such capture was made on deploy or by hand). */
export const kindOf = (manifest: Manifest): CaptureKind | "unrecorded" =>
  manifest.format === "site-archive/2" ? manifest.kind : "unrecorded";

/** The approved text hash of a page at the capture's commit (format 1 captures were refused unless they matched). */
export const approvedHashOf = (manifest: Manifest, path: string): string | null => {
  if (manifest.format === "site-archive/1") return manifest.pages.find((p) => p.path === path)?.textSha256 ?? null;
  return manifest.pages.find((p) => p.path === path)?.approvedSha256 ?? null;
};

/** A page as people name it: the title a format 2 capture recorded, else one made from its address. */
export function pageTitle(manifestOrPage: { path: string; title?: string }): string {
  if (manifestOrPage.title) return manifestOrPage.title;
  const { path } = manifestOrPage;
  if (path === "/") return "Landing page";
  if (path === "/404") return "Page not found (404)";
  return path
    .slice(1)
    .split(/[-/]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Pages whose live text was not the approved text when captured. */
export const driftedPages = (manifest: Manifest) => manifest.pages.filter((p) => approvedHashOf(manifest, p.path) !== p.textSha256);

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

/** A capture's name from a UTC time, ISO 8601 basic format: names sort by time, and no ":" for Windows or S3 keys. */
export const folderName = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");

/** A capture's name as written by `folderName`. */
export const CAPTURE_NAME = /^\d{8}T\d{6}Z$/;

/** The time a capture's name stands for. */
export const timeOfName = (name: string) =>
  new Date(`${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}T${name.slice(9, 11)}:${name.slice(11, 13)}:${name.slice(13, 15)}Z`);
