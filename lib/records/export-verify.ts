/**
 * `npm run records:verify -- export.zip`: an examiner's export checked from its bytes. The zip must be
 * an export (export.json), hold exactly the files export.json lists with their sizes and SHA-256 (each
 * altered, missing or added file named), and every capture in it must verify as in the store
 * (lib/records/verify.ts over the zip's entries): its manifest the one export.json recorded, its
 * timestamp token against the TSA CA given, else the export's own tsa-ca.pem, and the line says which.
 */
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { EXPORT_CA, EXPORT_INDEX, EXPORT_SUMS, exportSchema, type ExportIndex } from "./export-index.ts";
import { dateWritten } from "../dates.ts";
import { CAPTURE_APPROVALS, TIMESTAMP_TOKEN } from "./manifest.ts";
import { verifyCapture, type CaptureSource, type CheckLine } from "./verify.ts";

export interface ExportVerification {
  ok: boolean;
  lines: CheckLine[];
  problems: string[];
}

interface Zip {
  /** File entries by name (directories left out). */
  entries: Map<string, yauzl.Entry>;
  duplicates: string[];
  read(entry: yauzl.Entry): Promise<Buffer>;
  hash(entry: yauzl.Entry): Promise<{ bytes: number; sha256: string }>;
  close(): void;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function openZip(file: string): Promise<Zip> {
  const zip = await yauzl.openPromise(file, { autoClose: false });
  const entries = new Map<string, yauzl.Entry>();
  const duplicates: string[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith("/")) continue;
      if (entries.has(entry.fileName)) duplicates.push(entry.fileName);
      entries.set(entry.fileName, entry);
    }
  } catch (error) {
    zip.close();
    throw error;
  }
  const each = async (entry: yauzl.Entry, chunk: (data: Buffer) => void) => {
    const stream: Readable = await zip.openReadStreamPromise(entry);
    for await (const data of stream) chunk(data as Buffer);
  };
  return {
    entries,
    duplicates,
    async read(entry) {
      const chunks: Buffer[] = [];
      await each(entry, (data) => chunks.push(data));
      return Buffer.concat(chunks);
    },
    async hash(entry) {
      const hash = createHash("sha256");
      let bytes = 0;
      await each(entry, (data) => {
        hash.update(data);
        bytes += data.length;
      });
      return { bytes, sha256: hash.digest("hex") };
    },
    close: () => zip.close(),
  };
}

const refusal = (sentence: string): ExportVerification => ({
  ok: false,
  lines: [{ label: "Export index", ok: false, text: "This file cannot be checked as a records export.", problems: [sentence] }],
  problems: [sentence],
});

/** Every entry against export.json (and SHA256SUMS against export.json): altered, missing and added files named. */
async function checkFiles(zip: Zip, index: ExportIndex): Promise<CheckLine> {
  const problems = zip.duplicates.map((name) => `${name}: in the zip twice`);
  const listed = new Map(index.files.map((f) => [f.path, f]));
  for (const [name, entry] of zip.entries) {
    if (name === EXPORT_INDEX) continue;
    const expected = listed.get(name);
    listed.delete(name);
    if (!expected) {
      problems.push(`${name}: added (in the zip but not listed in ${EXPORT_INDEX})`);
      continue;
    }
    try {
      const found = await zip.hash(entry);
      if (found.bytes !== expected.bytes || found.sha256 !== expected.sha256)
        problems.push(`${name}: altered (its SHA-256 or size differs from ${EXPORT_INDEX})`);
    } catch (error) {
      problems.push(`${name}: cannot be read from the zip (${reason(error)})`);
    }
  }
  for (const path of listed.keys()) problems.push(`${path}: missing (listed in ${EXPORT_INDEX})`);
  const sums = zip.entries.get(EXPORT_SUMS);
  if (sums) {
    const lines = (await zip.read(sums).catch(() => Buffer.alloc(0))).toString("utf8").split("\n").filter(Boolean);
    const expected = index.files.filter((f) => f.path !== EXPORT_SUMS).map((f) => `${f.sha256}  ${f.path}`);
    if (lines.join("\n") !== expected.join("\n")) problems.push(`${EXPORT_SUMS}: does not list the files and hashes ${EXPORT_INDEX} lists`);
  }
  const count = index.files.length;
  return problems.length === 0
    ? {
        label: "Files",
        ok: true,
        text: `All ${count} files have the size and SHA-256 ${EXPORT_INDEX} lists; none is missing, none added.`,
        problems,
      }
    : { label: "Files", ok: false, text: `${problems.length} of the zip's files do not match ${EXPORT_INDEX}.`, problems };
}

/** One capture of the export, verified as in the store, with its paths named as the zip has them. */
async function checkCapture(
  zip: Zip,
  capture: ExportIndex["captures"][number],
  tsaCa: string | undefined,
  caWords: string,
): Promise<CheckLine> {
  const prefix = `captures/${capture.name}/`;
  const names = [...zip.entries.keys()].filter((n) => n.startsWith(prefix) && n !== `${prefix}${CAPTURE_APPROVALS}`);
  const source: CaptureSource = {
    files: async () => names.map((n) => ({ path: n.slice(prefix.length), bytes: zip.entries.get(n)!.uncompressedSize })),
    read: async (path) => {
      const entry = zip.entries.get(`${prefix}${path}`);
      // An entry that cannot be read is named by the Files line; here it is bytes that match nothing.
      return entry && (await zip.read(entry).catch(() => Buffer.alloc(0)));
    },
  };
  const result = await verifyCapture(source, { tsaCa, expectedManifestSha256: capture.manifestSha256 });
  const token = result.timestamp;
  const from = `In force from ${dateWritten(capture.inForceFrom)}`;
  const problems = result.problems.map((p) => `${prefix}${p}`);
  // A token taken out (or another put in) changes the time of record export.json gives.
  if (capture.timeSource === "tsa" && result.complete && !token)
    problems.push(`${prefix}${TIMESTAMP_TOKEN}: missing, though ${EXPORT_INDEX} says a Time Stamp Authority gave this capture's time`);
  if (capture.timeSource === "tsa" && token?.genTime && token.genTime.getTime() !== Date.parse(capture.time))
    problems.push(`${prefix}${TIMESTAMP_TOKEN}: its time is not the time of record ${EXPORT_INDEX} gives`);
  const checks = `its manifest, ${result.manifest?.files.length ?? 0} files, WARC and approvals check out`;
  const ok = problems.length === 0;
  const text = !ok
    ? `${from}: does not verify (${problems.length} problem${problems.length === 1 ? "" : "s"})${token ? `; its timestamp token was checked against ${caWords}` : ""}.`
    : token?.genTime
      ? `${from}: ${checks}; its trusted time, ${dateWritten(token.genTime)}, checked against ${caWords}.`
      : `${from}: ${checks}; it has no timestamp token: its time is the capturing machine's clock.`;
  return { label: `Capture ${capture.name}`, ok, text, problems };
}

/** Checks an examiner's export zip; refuses with one sentence a file that is not one. */
export async function verifyExport(file: string, options: { tsaCa?: string } = {}): Promise<ExportVerification> {
  let zip: Zip;
  try {
    zip = await openZip(file);
  } catch (error) {
    return refusal(`${file} is not a records export: it cannot be read as a zip file (${reason(error)}).`);
  }
  try {
    const indexEntry = zip.entries.get(EXPORT_INDEX);
    if (!indexEntry) return refusal(`${file} is not a records export: it has no ${EXPORT_INDEX}.`);
    let index: ExportIndex;
    try {
      const parsed = exportSchema.safeParse(JSON.parse((await zip.read(indexEntry)).toString("utf8")));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return refusal(
          `${file}: its ${EXPORT_INDEX} is not a records export's index (${issue.path.join(".") || "(root)"}: ${issue.message}).`,
        );
      }
      index = parsed.data;
    } catch (error) {
      return refusal(`${file}: its ${EXPORT_INDEX} cannot be read as JSON (${reason(error)}).`);
    }
    const by = index.exportedBy.name;
    const lines: CheckLine[] = [
      {
        label: "Export index",
        ok: true,
        text: `${EXPORT_INDEX} lists ${index.captures.length} captures and ${index.files.length} files; made ${dateWritten(index.createdAt)} by ${by}.`,
        problems: [],
      },
      await checkFiles(zip, index),
    ];
    const ownCa = zip.entries.get(EXPORT_CA);
    const tsaCa = options.tsaCa ?? (ownCa ? (await zip.read(ownCa).catch(() => Buffer.alloc(0))).toString("utf8") : undefined);
    const caWords = options.tsaCa
      ? "the TSA CA configured here (ARCHIVE_TSA_CA)"
      : ownCa
        ? `the export's own ${EXPORT_CA}, as no TSA CA is configured here`
        : "no TSA CA, as none is configured here and the export has none";
    for (const capture of index.captures) lines.push(await checkCapture(zip, capture, tsaCa, caWords));
    const problems = lines.flatMap((l) => l.problems);
    return { ok: problems.length === 0, lines, problems };
  } finally {
    zip.close();
  }
}
