/**
 * The examiner's export ("show us the website as it appeared on 14 March, and who approved it"): the
 * captures in force over a range of time or on a list of days, in one zip a person reads offline. Each
 * capture goes in exactly as stored, with the approvals of its pages, and the zip's own index lists
 * every file's SHA-256 so that `npm run records:verify` can prove it whole. Files are streamed into the
 * zip one at a time: an export of a thousand captures never holds more than one file in memory.
 */
import { dateWritten, dayWritten } from "../dates.ts";
import { createHash } from "node:crypto";
import { createReadStream, renameSync, rmSync, createWriteStream } from "node:fs";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import { sha256Hex } from "../hash.ts";
import { asOf, type CaptureEntry } from "./catalog.ts";
import {
  approvalsOf,
  EXPORT_CA,
  EXPORT_FORMAT,
  EXPORT_INDEX,
  EXPORT_SUMS,
  renderCsv,
  renderReadme,
  renderSums,
  type ExportIndex,
  type IndexedCapture,
} from "./export-index.ts";
import { CAPTURE_APPROVALS, MANIFEST, parseManifest, TIMESTAMP_TOKEN, type ManifestReview } from "./manifest.ts";
import { FolderStore, type ArchiveStore } from "./store.ts";
// Before index.html's component is imported (writeExport): plain `node` loads .tsx only through this hook.
import "../jsx-loader.ts";

export { verifyExport } from "./export-verify.ts";

/** The export cannot be made as asked: one sentence a person can act on. */
export class ExportError extends Error {}

export type ExportSelection = { from: Date; to: Date } | { dates: string[] };
export interface SelectedCapture {
  entry: CaptureEntry;
  inForceFrom: string;
  /** The next complete capture's time of record; undefined for the latest. */
  inForceUntil?: string;
  /**
   * Each page's version (its text as captured) and when it was in use, over every capture of the store,
   * not only the selected ones (FINRA 2210(b)(4)(A)): from the first capture of the run of captures that
   * showed that text until the next capture after the run; no `lastUse` while the latest capture shows it.
   */
  uses?: Record<string, { firstUse: string; lastUse?: string }>;
}

/** For each capture (oldest first) and page: when the page's text it showed was first and last in use. */
function versionUses(complete: CaptureEntry[]): Array<Record<string, { firstUse: string; lastUse?: string }>> {
  const uses = complete.map(() => ({}) as Record<string, { firstUse: string; lastUse?: string }>);
  const paths = new Set(complete.flatMap((entry) => entry.pages.map((p) => p.path)));
  for (const path of paths) {
    const textAt = (i: number) => complete[i]?.pages.find((p) => p.path === path)?.textSha256;
    for (let start = 0; start < complete.length;) {
      const text = textAt(start);
      let end = start;
      while (text !== undefined && end + 1 < complete.length && textAt(end + 1) === text) end++;
      if (text !== undefined) {
        const use = { firstUse: complete[start]!.time, ...(complete[end + 1] ? { lastUse: complete[end + 1]!.time } : {}) };
        for (let i = start; i <= end; i++) uses[i]![path] = use;
      }
      start = end + 1;
    }
  }
  return uses;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A UTC day (YYYY-MM-DD) as its first and last millisecond; throws one sentence for anything else. */
export function utcDay(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00.000Z`);
  if (!DAY.test(day) || Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day)
    throw new ExportError(`"${day}" is not a date written YYYY-MM-DD (2026-03-14).`);
  return { from, to: new Date(from.getTime() + 86_400_000 - 1) };
}

/**
 * When a capture's version came into force: its time of record, or, for a deploy capture of a studio
 * publish (issue 56), the moment the publish went live when that came first (and after the capture
 * before it): a scheduled publish is in force from its moment, not from when its capture finished.
 */
function inForceFrom(entry: CaptureEntry, before: CaptureEntry | undefined): string {
  const live = entry.kind === "deploy" ? entry.published?.wentLive : undefined;
  if (!live || Date.parse(live) >= Date.parse(entry.time)) return entry.time;
  return before && Date.parse(live) <= Date.parse(before.time) ? entry.time : new Date(live).toISOString();
}

/** Every complete capture in force at any moment of the range (both ends included) or of any of the days. */
export function selectForExport(entries: CaptureEntry[], selection: ExportSelection): { captures: SelectedCapture[]; notes: string[] } {
  const complete = entries
    .filter((e) => e.complete)
    .sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.name.localeCompare(b.name));
  const first = complete[0];
  const notes: string[] = [];
  if (!first) return { captures: [], notes: ["The store holds no complete capture, so there is nothing to export."] };
  const ranges = "dates" in selection ? selection.dates.map((day) => ({ day, ...utcDay(day) })) : [{ day: undefined, ...selection }];
  const chosen = new Set<CaptureEntry>();
  for (const { day, from, to } of ranges) {
    if (from > to) throw new ExportError(`The range ends (${dateWritten(to)}) before it starts (${dateWritten(from)}).`);
    const { current } = asOf(complete, from);
    if (current) chosen.add(current);
    const within = complete.filter((e) => Date.parse(e.time) > from.getTime() && Date.parse(e.time) <= to.getTime());
    within.forEach((e) => chosen.add(e));
    if (current) continue;
    const firstTime = dateWritten(first.time);
    if (within.length === 0)
      notes.push(
        `The store has no capture on or before ${day ? dayWritten(from) : dateWritten(to)}: the first capture is from ${firstTime}.`,
      );
    else notes.push(`Nothing is recorded from ${dateWritten(from)} until the first capture, ${firstTime}.`);
  }
  const uses = versionUses(complete);
  const captures = complete
    .map((entry, i) => ({
      entry,
      inForceFrom: inForceFrom(entry, complete[i - 1]),
      ...(complete[i + 1] ? { inForceUntil: inForceFrom(complete[i + 1]!, entry) } : {}),
      uses: uses[i]!,
    }))
    .filter(({ entry }) => chosen.has(entry));
  return { captures, notes };
}

export interface WriteExportOptions {
  store: ArchiveStore;
  selection: ExportSelection;
  /** From selectForExport. */
  captures: SelectedCapture[];
  /** From selectForExport: shown in index.html and README.txt (a day before the first capture…). */
  notes?: string[];
  exportedBy: { name: string; email?: string; role?: string };
  /** The TSA's CA certificate (PEM): put in the zip as tsa-ca.pem, for `openssl ts -verify` offline. */
  tsaCa?: string;
  file: string;
  now?: Date;
}

export interface ExportResult {
  file: string;
  /** Of the zip itself. */
  sha256: string;
  bytes: number;
  captures: number;
  /** Entries of the zip, export.json included. */
  files: number;
}

/** Hashes and counts what passes through, and records it when it ends. */
function hashing(path: string, files: ExportIndex["files"]): Transform {
  const hash = createHash("sha256");
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      files.push({ path, bytes, sha256: hash.digest("hex") });
      done();
    },
  });
}

/** Writes the export as one zip (to a partial file, renamed when complete). */
export async function writeExport(options: WriteExportOptions): Promise<ExportResult> {
  const { renderHtml } = await import("./export-index-page.tsx");
  const { store, file } = options;
  const now = options.now ?? new Date();
  const listed = await store.list();
  const indexed: IndexedCapture[] = [];
  for (const { entry, inForceFrom, inForceUntil, uses } of options.captures) {
    const stored = listed.get(entry.name);
    if (!stored) throw new ExportError(`The capture ${entry.name} is no longer in ${store.label}; export again.`);
    if (stored.some((f) => f.path === CAPTURE_APPROVALS))
      throw new ExportError(`The capture ${entry.name} has its own ${CAPTURE_APPROVALS}; it cannot be exported.`);
    const manifest = await store.read(entry.name, MANIFEST);
    const manifestSha256 = manifest && sha256Hex(manifest);
    if (!manifest || !manifestSha256 || manifestSha256 !== entry.manifestSha256)
      throw new ExportError(`The manifest of ${entry.name} in ${store.label} changed since the records' index read it; export again.`);
    let siteUrl: string | null = null;
    const links = new Map<string, NonNullable<IndexedCapture["pages"][number]["links"]>>();
    const reviews = new Map<string, ManifestReview>();
    try {
      const parsed = parseManifest(manifest);
      siteUrl = parsed.siteUrl;
      for (const page of parsed.pages) if ("links" in page && page.links) links.set(page.path, page.links);
      if ("reviews" in parsed) for (const review of parsed.reviews ?? []) reviews.set(review.page, review);
    } catch {
      // A manifest that does not parse: its verification outcome already says so.
    }
    const record = {
      name: entry.name,
      inForceFrom,
      inForceUntil: inForceUntil ?? null,
      time: entry.time,
      timeSource: entry.timeSource,
      ...(entry.certification && "certifiedAt" in entry.certification ? { certifiedAt: entry.certification.certifiedAt } : {}),
      kind: entry.kind,
      commit: entry.commit ?? null,
      siteUrl,
      manifestSha256,
      verification: { ok: entry.ok, checkedAt: entry.checkedAt, lines: entry.lines, problems: entry.problems },
    };
    const hasToken = stored.some((f) => f.path === TIMESTAMP_TOKEN);
    const pages = entry.pages.map((page) => ({
      ...page,
      ...(links.has(page.path) ? { links: links.get(page.path)! } : {}),
      ...(reviews.has(page.path) ? { review: reviews.get(page.path)! } : {}),
      ...(uses?.[page.path] ? { use: uses[page.path]! } : {}),
    }));
    indexed.push({ record, pages, approvals: approvalsOf(entry), hasToken });
  }

  const selection =
    "dates" in options.selection
      ? { dates: options.selection.dates }
      : { from: options.selection.from.toISOString(), to: options.selection.to.toISOString() };
  const index: ExportIndex = {
    format: EXPORT_FORMAT,
    createdAt: now.toISOString(),
    exportedBy: options.exportedBy,
    selection,
    store: store.label,
    notes: options.notes ?? [],
    tsaCa: options.tsaCa ? EXPORT_CA : null,
    captures: indexed.map((c) => c.record),
    files: [],
  };

  const zip = new yazl.ZipFile();
  const entryOptions = (path: string) => ({ mtime: now, compress: !/\.gz$/i.test(path) });
  const addBuffer = (path: string, data: string | Buffer) => {
    const bytes = Buffer.from(data);
    index.files.push({ path, bytes: bytes.length, sha256: sha256Hex(bytes) });
    zip.addBuffer(bytes, path, entryOptions(path));
  };
  /** Opened only when the zip reaches it, hashed on the way in. */
  const addLazy = (path: string, open: () => Promise<Readable>, record = true) =>
    zip.addReadStreamLazy(path, entryOptions(path), (done) => {
      open().then(
        (stream) => {
          // yazl pipes the stream without listening for its errors: a failed read fails the export.
          stream.once("error", (error) => zip.emit("error", error));
          done(null, record ? stream.pipe(hashing(path, index.files)) : stream);
        },
        (error: unknown) => zip.emit("error", error),
      );
    });

  addBuffer("README.txt", renderReadme(index, indexed));
  addBuffer("index.html", renderHtml(index, indexed));
  addBuffer("index.csv", renderCsv(indexed));
  if (options.tsaCa) addBuffer(EXPORT_CA, options.tsaCa);
  for (const { record, approvals } of indexed) {
    for (const { path } of listed.get(record.name)!) {
      addLazy(`captures/${record.name}/${path}`, async () => {
        if (store instanceof FolderStore) return createReadStream(join(store.root, record.name, path));
        const bytes = await store.read(record.name, path);
        if (!bytes) throw new ExportError(`${record.name}/${path} is no longer in ${store.label}; export again.`);
        return Readable.from([bytes]);
      });
    }
    addBuffer(`captures/${record.name}/${CAPTURE_APPROVALS}`, `${JSON.stringify({ capture: record.name, approvals }, null, 2)}\n`);
  }
  // Both written after every other entry, when every hash is known.
  addLazy(EXPORT_SUMS, async () => Readable.from([Buffer.from(renderSums(index.files))]));
  addLazy(EXPORT_INDEX, async () => Readable.from([Buffer.from(`${JSON.stringify(index, null, 2)}\n`)]), false);
  zip.end();

  const partial = `${file}.partial`;
  const hash = createHash("sha256");
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const output = zip.outputStream as Readable;
  zip.on("error", (error: Error) => output.destroy(error));
  try {
    await pipeline(output, counted, createWriteStream(partial));
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { file, sha256: hash.digest("hex"), bytes, captures: indexed.length, files: index.files.length + 1 };
}
