/**
 * The examiner's export as people and programs read it: export.json's format (what records:verify
 * checks the zip against), and index.csv and README.txt (index.html: export-index-page.tsx), written for
 * a person offline.
 * Plain words: pages as people name them, times in UTC with the date written out; hashes only in the
 * HTML's "Technical details" and the CSV's hash column; the commit the site was built from in both.
 */
import { dateWritten, dayWritten } from "../dates.ts";
import { timeSourceWords } from "./wording.ts";
import { z } from "zod";
import type { CaptureEntry } from "./catalog.ts";
import { CAPTURE_APPROVALS, TIMESTAMP_TOKEN, type ManifestReview } from "./manifest.ts";

export const EXPORT_FORMAT = "records-export/1";
export const EXPORT_INDEX = "export.json";
export const EXPORT_CA = "tsa-ca.pem";
export const EXPORT_SUMS = "SHA256SUMS";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const checkLine = z.object({ label: z.string(), ok: z.boolean(), text: z.string(), problems: z.array(z.string()) });

export const exportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  createdAt: z.iso.datetime(),
  exportedBy: z.object({ name: z.string().min(1), email: z.string().optional(), role: z.string().optional() }),
  selection: z.union([z.object({ from: z.iso.datetime(), to: z.iso.datetime() }), z.object({ dates: z.array(z.string()) })]),
  store: z.string(),
  notes: z.array(z.string()),
  /** The TSA CA the export was made with, as a file of the zip; null when none was configured. */
  tsaCa: z.literal(EXPORT_CA).nullable(),
  captures: z.array(
    z.object({
      name: z.string().regex(/^\d{8}T\d{6}Z$/),
      inForceFrom: z.iso.datetime(),
      inForceUntil: z.iso.datetime().nullable(),
      time: z.iso.datetime(),
      timeSource: z.enum(["tsa", "clock"]),
      /** A token that came after the capture (the TSA was out when it was made): when it certified it. */
      certifiedAt: z.iso.datetime().optional(),
      kind: z.string(),
      commit: z.string().nullable(),
      siteUrl: z.string().nullable(),
      manifestSha256: sha256,
      /** The outcome of the capture's last full verification in the store, as the records' index holds it. */
      verification: z.object({ ok: z.boolean(), checkedAt: z.iso.datetime(), lines: z.array(checkLine), problems: z.array(z.string()) }),
    }),
  ),
  /** Every other entry of the zip. */
  files: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative(), sha256 })),
});

export type ExportIndex = z.infer<typeof exportSchema>;
export type ExportedCapture = ExportIndex["captures"][number];

/** A row of a capture's approvals.json: who approved a page's words, and who wrote them. */
export interface ExportApproval {
  page: string;
  title: string;
  /** The principal's name as the roster has it, else the ledger's free text ("Pat Example, Series 24"). */
  name: string;
  approvedBy: string;
  crd: string | null;
  registration: string | null;
  email: string | null;
  approvedOn: string;
  /** The approved text's SHA-256, and whether the page as captured said exactly that text. */
  sha256: string;
  liveTextApproved: boolean;
  reviewedCommit: string | null;
  /** Who wrote the approved change, where git history says; null when it does not. */
  editors: Array<{ name: string; email: string }> | null;
}

/** The approvals covering a capture's pages, as its approvals.json holds them. */
export function approvalsOf(entry: CaptureEntry): ExportApproval[] {
  return entry.approvals.flatMap((a) => {
    const page = entry.pages.find((p) => p.path === a.page);
    if (!page) return [];
    return [
      {
        page: a.page,
        title: page.title,
        name: a.principal?.name ?? a.approvedBy,
        approvedBy: a.approvedBy,
        crd: a.principal?.crd ?? null,
        registration: a.principal?.registration ?? null,
        email: a.principal?.email ?? null,
        approvedOn: a.approvedOn,
        sha256: a.sha256,
        liveTextApproved: page.textSha256 === a.sha256,
        reviewedCommit: a.commit ?? null,
        editors: a.editedBy ?? null,
      },
    ];
  });
}

/** What the HTML and CSV show of one capture. */
export interface IndexedCapture {
  record: ExportedCapture;
  pages: Array<{
    path: string;
    title: string;
    pdf: string;
    textSha256: string;
    approvedSha256: string | null;
    /** Where the page sent the visitor and what it showed, as its approved text names them (captures since link targets are approved). */
    links?: Array<{ kind: string; name: string; target: string }>;
    /** Its review on the capture's day (captures since reviews are kept, issue 54). */
    review?: ManifestReview;
    /** When the version it showed (its text) was first and last in use, over the whole store (FINRA 2210(b)(4)(A)). */
    use?: { firstUse: string; lastUse?: string };
  }>;
  approvals: ExportApproval[];
  hasToken: boolean;
}

export const pageAddress = (siteUrl: string | null, path: string) => (siteUrl ? new URL(path, siteUrl).href : path);
export const until = (c: ExportedCapture) => (c.inForceUntil ? dateWritten(c.inForceUntil) : "");
export const approver = (a: ExportApproval) => (a.registration ? `${a.name}, ${a.registration}` : a.name);
export const timeSource = (c: ExportedCapture) => timeSourceWords(c.timeSource, c.certifiedAt ? { certifiedAt: c.certifiedAt } : undefined);

export function selectionWords(selection: ExportIndex["selection"]): string {
  if ("dates" in selection) return `the website as it appeared on ${selection.dates.map(dayWritten).join(", ")} (days in UTC)`;
  return `the website as it appeared from ${dateWritten(selection.from)} to ${dateWritten(selection.to)}`;
}

/** A page's links in one field: "FINRA: https://www.finra.org; …" (images and frames named so); empty before captures recorded them. */
export const linkWords = (links: IndexedCapture["pages"][number]["links"]) =>
  (links ?? []).map((l) => `${l.kind === "link" ? "" : `${l.kind} `}${l.name}: ${l.target}`).join("; ");

/** A version shown by the latest capture: no last use yet. */
export const STILL_IN_USE = "in use at the latest capture";

/** "15 January 2025" or, before reviews were kept, "". */
export const reviewDay = (day: string | undefined) => (day ? dayWritten(`${day}T00:00:00Z`) : "");

/** Who last reviewed the page, or what its last review was counted from when no review is recorded. */
export const reviewerWords = (review: ManifestReview) =>
  review.reviewedBy ??
  `no review recorded (counted from its ${review.countedFrom === "first approval" ? "first approval" : '"Last updated"'})`;

/** RFC 4180: every field quoted where needed, CRLF line ends, a header row. */
export function renderCsv(captures: IndexedCapture[]): string {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const header = ["In force from", "In force until", "Capture", "Time of record", "Time source", "Kind", "Commit", "Page", "Page address"];
  const rows = [
    [
      ...header,
      "Approved by",
      "CRD",
      "Approved on",
      "Live text is the approved text",
      "Last reviewed",
      "Reviewed by",
      "Review due",
      "Review overdue at the time of record",
      "This version first used",
      "This version last used",
      "Text SHA-256",
      "PDF",
      "Links (name: address)",
    ],
    ...captures.flatMap(({ record, pages, approvals }) =>
      pages.map((page) => {
        const approval = approvals.find((a) => a.page === page.path);
        return [
          dateWritten(record.inForceFrom),
          until(record),
          record.name,
          dateWritten(record.time),
          timeSource(record),
          record.kind,
          record.commit ?? "",
          page.title,
          pageAddress(record.siteUrl, page.path),
          approval ? approver(approval) : "",
          approval?.crd ?? "",
          approval ? dateWritten(approval.approvedOn) : "",
          page.approvedSha256 === page.textSha256 ? "yes" : "no",
          reviewDay(page.review?.lastReviewed),
          page.review ? reviewerWords(page.review) : "",
          reviewDay(page.review?.due),
          page.review ? (page.review.status === "overdue" ? "yes" : "no") : "",
          page.use ? dateWritten(page.use.firstUse) : "",
          page.use ? (page.use.lastUse ? dateWritten(page.use.lastUse) : STILL_IN_USE) : "",
          page.textSha256,
          `captures/${record.name}/${page.pdf}`,
          linkWords(page.links),
        ];
      }),
    ),
  ];
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}

export function renderReadme(index: ExportIndex, captures: IndexedCapture[]): string {
  const stamped = captures.filter((c) => c.hasToken).map((c) => c.record.name);
  const tsa = (name: string) =>
    `   openssl ts -verify -data captures/${name}/manifest.json -in captures/${name}/${TIMESTAMP_TOKEN} -CAfile ${EXPORT_CA}`;
  return [
    "Website records exported for examination",
    "",
    `This zip shows ${selectionWords(index.selection)}, and who approved each page.`,
    `Made ${dateWritten(index.createdAt)} by ${index.exportedBy.name}, from ${index.store}; ${captures.length} capture(s).`,
    "Each capture was the website in force from its time of record (for a studio publish, the moment it went live) until the next capture's.",
    ...index.notes,
    "",
    "What is here",
    "  index.html   read this first: any browser, offline (no scripts, nothing fetched); prints as it shows",
    "  index.csv    the same, one row per page of each capture, for a spreadsheet",
    `  ${EXPORT_INDEX}  every other file of the zip with its size and SHA-256; each capture's verification`,
    `  ${EXPORT_SUMS}   the same hashes, for sha256sum`,
    ...(index.tsaCa ? [`  ${EXPORT_CA}   the Time Stamp Authority's CA certificate the export was made with`] : []),
    "  captures/<name>/  one capture exactly as stored: manifest.json (every file's SHA-256), its .sha256,",
    `               ${TIMESTAMP_TOKEN} (the RFC 3161 timestamp token, where there is one), the WARC (every request`,
    `               and response as served), pdf/ (one PDF per page), and ${CAPTURE_APPROVALS} (added by the export)`,
    "",
    "How to check it offline (unzip it first)",
    `1. Every file as exported:  sha256sum -c ${EXPORT_SUMS}`,
    "2. Each capture's manifest: cd captures/<name> && sha256sum -c manifest.json.sha256",
    "   manifest.json lists the SHA-256 of the capture's WARC and of each PDF.",
    "3. The trusted time of each capture with a token (prefer the TSA's CA as the TSA publishes it to this copy):",
    ...(stamped.length ? stamped.map(tsa) : ["   (no capture here has a timestamp token: their times are the capturing machine's clock)"]),
    "4. Everything at once, with the firm's tools: npm run records:verify -- <this zip>",
    "",
  ].join("\n");
}

/** `sha256sum -c` reads it: "<hex>  <path>". */
export const renderSums = (files: ExportIndex["files"]) => files.map((f) => `${f.sha256}  ${f.path}\n`).join("");
