/**
 * The examiner's export as a WACZ (Web Archive Collection Zipped, specs.webrecorder.net/wacz/1.1.1):
 * the packaging the web-archiving world opens, ReplayWeb.page first. One WACZ holds the chosen captures:
 * each capture's WARC byte for byte under `archive/` (stored, never compressed again), a sorted CDXJ
 * index of them under `indexes/` (warcio's indexer), `pages/pages.jsonl` (one line per page per capture,
 * at the time its response was recorded, titled with the page and its approver), the capture's own
 * records (manifest, PDFs, timestamp token, approvals) under `records/<capture>/`, a README for the
 * examiner, `datapackage.json` listing every file with its size and SHA-256, and
 * `datapackage-digest.json` with the hash of that list, signed when the firm configures a key
 * (ECDSA P-384 over the hash string, IEEE P1363, as wabac.js verifies it: decision 0055).
 *
 * `verifyWacz` checks what a WACZ validator checks (every file listed with its size and hash, nothing
 * unlisted, WARCs stored, the index equal to one made again, the pages file, the digest and the
 * signature), then the project's own records inside (each manifest's files and WARC by their hashes).
 * Each problem is one line that names the file.
 */
import { createHash, createPrivateKey, createPublicKey, sign as signData, type KeyObject } from "node:crypto";
import { createWriteStream, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import { sha256Hex } from "../hash.ts";
import { pemSetting } from "../pem.ts";
import { ExportError, type SelectedCapture } from "./export.ts";
import { approvalsFile, CAPTURE_APPROVALS, CAPTURE_WACZ, filesUnder, MANIFEST, parseManifest } from "./manifest.ts";
import { verifyCapture } from "./verify.ts";
import type { ArchiveStore } from "./store.ts";
import { readWarc } from "./warc-read.ts";
import {
  CAPTURE_PACKAGE,
  cdxjFile,
  cdxjLines,
  checkDigest,
  checkPackage,
  DATAPACKAGE,
  DIGEST,
  INDEX,
  PAGES,
  PAGES_HEADER,
  readZip,
  sha,
  WACZ_CA,
  WACZ_PROFILE,
  WACZ_VERSION,
  type DataPackage,
  type SignedData,
  type WaczResource,
  type ZipEntry,
} from "./wacz-package.ts";

export { CAPTURE_PACKAGE, DATAPACKAGE, DIGEST, PAGES_HEADER, WACZ_CA, WACZ_PROFILE, WACZ_VERSION };
export type { DataPackage, SignedData, WaczResource };
const SOFTWARE = "institutional-trading-site records:export";

/** The firm's signing key (PEM, EC P-384): its public half and fingerprint go in the export's README. */
export function loadSigningKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "secp384r1")
    throw new ExportError(
      "The WACZ signing key must be an EC key on the P-384 curve (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384).",
    );
  return key;
}

/**
 * ARCHIVE_WACZ_KEY as the firm sets it: the PEM itself (a CI secret) or the path of a file holding it;
 * undefined when it is not set (the WACZ is then not signed, and the command says so).
 */
export function signingKeyFrom(value: string | undefined): KeyObject | undefined {
  const pem = pemSetting("ARCHIVE_WACZ_KEY", value, (message) => new ExportError(message));
  return pem === undefined ? undefined : loadSigningKey(pem);
}

/** The public key as `signedData` carries it (SPKI DER, base64), and its SHA-256 fingerprint. */
export function publicKeyOf(key: KeyObject): { spki: string; fingerprint: string } {
  const der = createPublicKey(key).export({ type: "spki", format: "der" });
  return { spki: der.toString("base64"), fingerprint: sha256Hex(der) };
}

/** `signedData` for the hash string: an anonymous signature, as the WACZ signing spec has it. */
export function signHash(hash: string, key: KeyObject, created: Date): SignedData {
  const signature = signData("sha256", Buffer.from(hash, "utf8"), { key, dsaEncoding: "ieee-p1363" });
  return {
    hash,
    signature: signature.toString("base64"),
    publicKey: publicKeyOf(key).spki,
    created: created.toISOString(),
    software: SOFTWARE,
  };
}

/** The time of each response in a WARC, by URL: the moment a replayer shows for the page. */
async function responseTimes(bytes: Buffer): Promise<Map<string, string>> {
  const times = new Map<string, string>();
  for await (const record of readWarc(bytes)) if (record.type === "response" && !times.has(record.url)) times.set(record.url, record.date);
  return times;
}

/** What a WACZ is signed with and stamped by, and what goes beside its files. */
interface Sealing {
  /** The README (how to open the file and check its time); written at the root. */
  readme: (parts: { fingerprint: string | null }) => string;
  key?: KeyObject;
  /** Asks the firm's TSA for a token over the signature's bytes (lib/records/timestamp.ts); none: no trusted time. */
  timestamp?: (data: Uint8Array) => Promise<Buffer>;
  /** The TSA's CA certificate (PEM), put in as records/tsa-ca.pem. */
  tsaCa?: string;
  now?: Date;
}

export interface WriteWaczOptions extends Sealing {
  store: ArchiveStore;
  captures: SelectedCapture[];
  file: string;
}

export interface WaczResult {
  file: string;
  sha256: string;
  bytes: number;
  captures: number;
  files: number;
  /** Why the signature has no trusted time, when a TSA was asked and did not give it. */
  untimed?: string;
  /** Captures whose WACZ stored at capture time was gathered as it is, not packaged again. */
  gathered: string[];
  /** A stored capture's WACZ that did not check out, so the capture was packaged from its files: why, one line each. */
  repackaged: string[];
}

/** One capture's files as a WACZ is made of them: from the store, or the staging folder as it is captured. */
interface CaptureFiles {
  name: string;
  /** Where the capture is, for sentences: "the folder archive/", "s3://…". */
  label: string;
  paths: string[];
  read(path: string): Promise<Buffer | undefined>;
  /** The manifest's SHA-256 as the records' index read it; its bytes must still be those. */
  manifestSha256?: string;
}

/** A WACZ being put together: its entries, each listed in `resources` as it is added. */
class Packing {
  readonly resources: WaczResource[] = [];
  readonly zip = new yazl.ZipFile();
  readonly cdx: string[] = [];
  readonly pages: string[] = [];
  /** The WARCs put in, by name: their SHA-256. */
  readonly archived = new Map<string, string>();
  mainPage: { url: string; ts: string } | undefined;
  readonly now: Date;
  constructor(now: Date) {
    this.now = now;
  }

  add(path: string, bytes: Buffer, compress = true) {
    this.resources.push({ name: path.split("/").pop()!, path, hash: sha(bytes), bytes: bytes.length });
    this.zip.addBuffer(bytes, path, { mtime: this.now, compress });
  }

  /** A capture's own record, outside archive/ (PDFs and gzip are not compressed again). */
  addRecord(capture: string, path: string, bytes: Buffer) {
    this.add(`records/${capture}/${path}`, bytes, !/\.(gz|pdf)$/i.test(path));
  }

  /** Puts a WARC in once (a capture derived from another shares its WARC); false when it was in already. */
  addWarc(name: string, bytes: Buffer): boolean {
    const known = this.archived.get(name);
    if (known && known !== sha256Hex(bytes))
      throw new ExportError(`Two captures have different WARCs named ${name}; they cannot both be in one WACZ.`);
    if (known) return false;
    this.archived.set(name, sha256Hex(bytes));
    // Stored as it is: a replayer reads its records at their offsets.
    this.add(`archive/${name}`, bytes, false);
    return true;
  }

  /** Packages one capture from its files: its WARC read once, for its index lines and its responses' times. */
  async pack(capture: CaptureFiles) {
    const manifestBytes = await capture.read(MANIFEST);
    if (!manifestBytes || (capture.manifestSha256 && sha256Hex(manifestBytes) !== capture.manifestSha256))
      throw new ExportError(`The manifest of ${capture.name} in ${capture.label} changed since the records' index read it; export again.`);
    const manifest = parseManifest(manifestBytes);
    let times = new Map<string, string>();
    for (const path of capture.paths) {
      if (path === CAPTURE_WACZ) continue;
      const read = await capture.read(path);
      if (!read) throw new ExportError(`${capture.name}/${path} is no longer in ${capture.label}; export again.`);
      const bytes = Buffer.from(read);
      if (path !== manifest.warc) this.addRecord(capture.name, path, bytes);
      else {
        times = await responseTimes(bytes);
        if (this.addWarc(path, bytes)) this.cdx.push(...(await cdxjLines([{ name: path, bytes }])));
      }
    }
    const approvals = manifest.approvals;
    this.addRecord(capture.name, CAPTURE_APPROVALS, Buffer.from(approvalsFile(capture.name, approvals)));
    for (const page of manifest.pages) {
      const ts = times.get(page.url);
      if (!ts) continue;
      const title = "title" in page ? page.title : page.path;
      const approver = approvals.find((a) => a.page === page.path)?.approvedBy;
      const line = {
        id: sha256Hex(`${capture.name} ${page.url}`).slice(0, 32),
        url: page.url,
        ts,
        title: `${title}: approved by ${approver ?? "no one on record"}`,
      };
      this.pages.push(JSON.stringify(line));
      if (page.path === "/") this.mainPage = { url: page.url, ts };
    }
  }

  /**
   * Gathers a capture from the WACZ stored with it at capture time, as it is: its WARC, index lines,
   * pages lines and records, and its datapackage and signed digest under records/<capture>/capture-wacz/,
   * which say what the capture held when it was made. A file the store has that the WACZ has not (a
   * token that came later) is added from the store. Returns why it could not, when the stored WACZ
   * does not check out or is not this capture's: the capture is then packaged from its files.
   */
  async gather(capture: CaptureFiles, tsaCa: string | undefined): Promise<string | undefined> {
    const stored = await capture.read(CAPTURE_WACZ);
    if (!stored) return `${capture.name}/${CAPTURE_WACZ}: no longer in ${capture.label}`;
    const check = await verifyWacz(Buffer.from(stored), tsaCa ? { tsaCa } : {});
    if (!check.ok) return `${capture.name}/${CAPTURE_WACZ}: ${check.problems[0]}`;
    const entries = await readZip(Buffer.from(stored));
    const own = `records/${capture.name}/`;
    const manifest = entries.get(`${own}${MANIFEST}`)?.bytes;
    const current = await capture.read(MANIFEST);
    if (!manifest || !current || !manifest.equals(current) || (capture.manifestSha256 && sha256Hex(manifest) !== capture.manifestSha256))
      return `${capture.name}/${CAPTURE_WACZ}: holds another manifest than the capture's`;
    const datapackage = JSON.parse(entries.get(DATAPACKAGE)!.bytes.toString("utf8")) as DataPackage;
    const warcs = [...entries.keys()].filter((path) => path.startsWith("archive/"));
    const fresh = warcs.filter((path) => this.addWarc(path.slice("archive/".length), entries.get(path)!.bytes));
    // A WARC already in (shared with a capture put in before) brings its index lines with it once.
    if (fresh.length === warcs.length) this.cdx.push(...entries.get(INDEX)!.bytes.toString("utf8").split("\n").filter(Boolean));
    this.pages.push(...entries.get(PAGES)!.bytes.toString("utf8").split("\n").filter(Boolean).slice(1));
    const inWacz = new Set<string>();
    for (const [path, { bytes }] of entries)
      if (path.startsWith(own) && !path.startsWith(`${own}${CAPTURE_PACKAGE}/`)) {
        inWacz.add(path.slice(own.length));
        this.add(path, bytes, !/\.(gz|pdf)$/i.test(path));
      }
    this.add(`${own}${CAPTURE_PACKAGE}/${DATAPACKAGE}`, entries.get(DATAPACKAGE)!.bytes);
    this.add(`${own}${CAPTURE_PACKAGE}/${DIGEST}`, entries.get(DIGEST)!.bytes);
    const warc = parseManifest(manifest).warc;
    for (const path of capture.paths) {
      if (path === CAPTURE_WACZ || path === warc || inWacz.has(path)) continue;
      const bytes = await capture.read(path);
      if (!bytes) throw new ExportError(`${capture.name}/${path} is no longer in ${capture.label}; export again.`);
      this.addRecord(capture.name, path, Buffer.from(bytes));
    }
    if (datapackage.mainPageURL && datapackage.mainPageDate) this.mainPage = { url: datapackage.mainPageURL, ts: datapackage.mainPageDate };
    return undefined;
  }

  /** The index, pages, README, datapackage and its signed digest; then the zip, written to a partial file renamed when complete. */
  async seal(file: string, title: string, sealing: Sealing): Promise<Omit<WaczResult, "captures" | "gathered" | "repackaged">> {
    const { now } = this;
    if (this.archived.size === 0) throw new ExportError("None of the chosen captures has a WARC, so there is nothing to replay.");
    this.add(INDEX, Buffer.from(cdxjFile(this.cdx)));
    this.add(PAGES, Buffer.from(`${[PAGES_HEADER, ...this.pages].join("\n")}\n`));
    const key = sealing.key;
    if (sealing.tsaCa) this.add(WACZ_CA, Buffer.from(sealing.tsaCa));
    this.add("README.txt", Buffer.from(sealing.readme({ fingerprint: key ? publicKeyOf(key).fingerprint : null })));
    const datapackage: DataPackage = {
      profile: WACZ_PROFILE,
      wacz_version: WACZ_VERSION,
      title,
      created: now.toISOString(),
      software: SOFTWARE,
      ...(this.mainPage ? { mainPageURL: this.mainPage.url, mainPageDate: this.mainPage.ts } : {}),
      resources: this.resources,
    };
    const packageBytes = Buffer.from(`${JSON.stringify(datapackage, null, 2)}\n`);
    const hash = sha(packageBytes);
    const { zip } = this;
    zip.addBuffer(packageBytes, DATAPACKAGE, { mtime: now });
    const signedData = key ? signHash(hash, key, now) : undefined;
    // The token cannot be a file of its own: datapackage.json, which the signature covers, would have to list it.
    // A TSA that does not answer leaves the signature without trusted time, said in the result: the captures inside keep theirs.
    let untimed: string | undefined;
    if (signedData && sealing.timestamp)
      try {
        signedData.timeSignature = (await sealing.timestamp(Buffer.from(signedData.signature, "base64"))).toString("base64");
      } catch (error) {
        untimed = error instanceof Error ? error.message : String(error);
      }
    const digest = { path: DATAPACKAGE, hash, ...(signedData ? { signedData } : {}) };
    zip.addBuffer(Buffer.from(`${JSON.stringify(digest, null, 2)}\n`), DIGEST, { mtime: now });
    zip.end();

    const partial = `${file}.partial`;
    const whole = createHash("sha256");
    let bytes = 0;
    const output = zip.outputStream as Readable;
    output.on("data", (chunk: Buffer) => {
      whole.update(chunk);
      bytes += chunk.length;
    });
    try {
      await pipeline(output, createWriteStream(partial));
      renameSync(partial, file);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    return { file, sha256: whole.digest("hex"), bytes, files: this.resources.length + 2, ...(untimed ? { untimed } : {}) };
  }
}

/**
 * Writes the examiner's WACZ of the chosen captures. A capture stored with its own WACZ (made at
 * capture time) is gathered from it as it is; one without (made before, or derived) is packaged from
 * its files.
 */
export async function writeWacz(options: WriteWaczOptions): Promise<WaczResult> {
  const { store } = options;
  const packing = new Packing(options.now ?? new Date());
  const listed = await store.list();
  const gathered: string[] = [];
  const repackaged: string[] = [];
  for (const { entry } of options.captures) {
    const stored = listed.get(entry.name);
    if (!stored) throw new ExportError(`The capture ${entry.name} is no longer in ${store.label}; export again.`);
    const capture: CaptureFiles = {
      name: entry.name,
      label: store.label,
      paths: stored.map((f) => f.path),
      read: (path) => store.read(entry.name, path),
      manifestSha256: entry.manifestSha256,
    };
    if (capture.paths.includes(CAPTURE_WACZ)) {
      const why = await packing.gather(capture, options.tsaCa);
      if (!why) {
        gathered.push(entry.name);
        continue;
      }
      repackaged.push(why);
    }
    await packing.pack(capture);
  }
  const sealed = await packing.seal(options.file, `Website records, ${options.captures.length} capture(s)`, options);
  return { ...sealed, captures: options.captures.length, gathered, repackaged };
}

/**
 * The WACZ stored with a capture (CAPTURE_WACZ), written into its staging folder once its manifest
 * and token are there: signed with the firm's key and timestamped by its TSA as the capture is made,
 * so an export later gathers it instead of packaging the capture again.
 */
export async function writeCaptureWacz(folder: string, name: string, sealing: Omit<Sealing, "readme">): Promise<WaczResult> {
  const paths = filesUnder(folder).filter((path) => path !== CAPTURE_WACZ);
  const packing = new Packing(sealing.now ?? new Date());
  await packing.pack({ name, label: `the capture ${name}`, paths, read: async (path) => readFileSync(join(folder, path)) });
  const readme = ({ fingerprint }: { fingerprint: string | null }) =>
    waczReadme({
      captures: 1,
      notes: [`Written by npm run records:capture as the capture ${name} was made.`],
      by: "records:capture",
      fingerprint,
    });
  const sealed = await packing.seal(join(folder, CAPTURE_WACZ), `Website capture ${name}`, { ...sealing, readme });
  return { ...sealed, captures: 1, gathered: [], repackaged: [] };
}

export interface WaczCheck {
  ok: boolean;
  /** One line per problem, each naming the file. */
  problems: string[];
  captures: number;
  signed: boolean;
  /** The signing key's SHA-256 fingerprint, when signed. */
  fingerprint: string | null;
  /** When the TSA says the signature existed (its token in `timeSignature` checked against the CA); null without one. */
  signedAt: string | null;
  /** The SHA-256 of each capture's manifest.json inside (records/<capture>/manifest.json). */
  manifests: string[];
  /** The captures gathered from the WACZ stored with them, whether it was signed, and when by its token. */
  sealedAtCapture: Array<{ capture: string; signed: boolean; signedAt: string | null }>;
}

const NOTHING_FOUND = { captures: 0, signed: false, fingerprint: null, signedAt: null, sealedAtCapture: [], manifests: [] };

/** Checks a WACZ as a validator would, then the project's records inside it. */
export async function verifyWacz(file: string | Buffer, options: { tsaCa?: string } = {}): Promise<WaczCheck> {
  const { entries, problems, signed, fingerprint, signedAt } = await checkPackage(file, options.tsaCa);
  const ownCa = entries.get(WACZ_CA)?.bytes.toString("utf8");
  const done = (found: Omit<WaczCheck, "ok" | "problems">): WaczCheck => ({ ok: problems.length === 0, problems, ...found });
  if (!entries.has(DATAPACKAGE)) return done({ ...NOTHING_FOUND, signed, fingerprint, signedAt });

  // The project's records inside, each capture checked as in the store (lib/records/verify.ts): its
  // manifest, every file it lists by size and hash, the WARC's records against the pages, the token.
  const captures = [...entries.keys()].filter((path) => /^records\/[^/]+\/manifest\.json$/.test(path));
  const sealedAtCapture: WaczCheck["sealedAtCapture"] = [];
  for (const path of captures) {
    const folder = path.slice(0, -MANIFEST.length);
    let warc: string | undefined;
    try {
      warc = parseManifest(entries.get(path)!.bytes).warc;
    } catch {
      // verifyCapture names what is wrong with the manifest.
    }
    const inZip = (name: string) => (name === warc ? `archive/${name}` : `${folder}${name}`);
    const sealed = await checkCapturePackage(entries, folder, options.tsaCa ?? ownCa, problems);
    if (sealed) sealedAtCapture.push(sealed);
    const names = [...entries.keys()]
      .filter((n) => n.startsWith(folder) && n !== `${folder}${CAPTURE_APPROVALS}` && !n.startsWith(`${folder}${CAPTURE_PACKAGE}/`))
      .map((n) => n.slice(folder.length));
    if (warc && entries.has(`archive/${warc}`)) names.push(warc);
    const result = await verifyCapture(
      {
        files: async () => names.map((name) => ({ path: name, bytes: entries.get(inZip(name))!.bytes.length })),
        read: async (name) => entries.get(inZip(name))?.bytes,
      },
      { tsaCa: options.tsaCa ?? ownCa },
    );
    for (const problem of result.problems) problems.push(problem.startsWith(warc ?? "\0") ? `archive/${problem}` : `${folder}${problem}`);
  }
  // A WARC two captures share is checked for each: named once.
  problems.splice(0, problems.length, ...new Set(problems));
  const manifests = captures.map((path) => sha256Hex(entries.get(path)!.bytes));
  return done({ captures: captures.length, signed, fingerprint, signedAt, sealedAtCapture, manifests });
}

/**
 * A capture gathered from the WACZ stored with it (records/<capture>/capture-wacz/): that package's
 * digest and signature check out, and every WARC and record of the capture it listed is in this file
 * with the same hash: what the capture held when it was made is what the examiner has.
 */
async function checkCapturePackage(entries: Map<string, ZipEntry>, folder: string, tsaCa: string | undefined, problems: string[]) {
  const prefix = `${folder}${CAPTURE_PACKAGE}/`;
  const packageEntry = entries.get(`${prefix}${DATAPACKAGE}`);
  const digestEntry = entries.get(`${prefix}${DIGEST}`);
  if (!packageEntry && !digestEntry) return undefined;
  if (!packageEntry || !digestEntry) {
    problems.push(`${prefix}: holds only one of ${DATAPACKAGE} and ${DIGEST}`);
    return undefined;
  }
  const found = await checkDigest(packageEntry.bytes, digestEntry.bytes, prefix, tsaCa, problems);
  try {
    const held = JSON.parse(packageEntry.bytes.toString("utf8")) as DataPackage;
    for (const resource of held.resources)
      if (resource.path.startsWith("archive/") || resource.path.startsWith(folder)) {
        const entry = entries.get(resource.path);
        if (!entry || sha(entry.bytes) !== resource.hash)
          problems.push(`${resource.path}: not what ${prefix}${DATAPACKAGE} says the capture held when it was made`);
      }
  } catch (error) {
    problems.push(`${prefix}${DATAPACKAGE}: unreadable (${error instanceof Error ? error.message : error})`);
  }
  return { capture: folder.slice("records/".length, -1), signedAt: found.signedAt, signed: found.signed };
}

/** The examiner's README inside the WACZ: what it holds, how to open it, how to check it offline. */
export function waczReadme(parts: { captures: number; notes: string[]; by: string; fingerprint: string | null }): string {
  const lines = [
    "Website records: a WACZ (Web Archive Collection Zipped, specification 1.1.1)",
    "",
    `Made by ${parts.by}; ${parts.captures} capture(s) of the website, each as it was served and recorded.`,
    ...parts.notes.map((note) => `Note: ${note}`),
    "",
    "To open it:",
    '- In a browser: go to https://replayweb.page, press "Choose File" and pick this file. It is read in',
    "  the browser; nothing is uploaded. Each page is listed with the time it was captured and who approved it.",
    "- Offline: ReplayWeb.page's desktop app opens the same file without a network.",
    "",
    "What it holds:",
    "- archive/: each capture's WARC, byte for byte as recorded (stored, not compressed again).",
    "- indexes/index.cdxj: the index a replayer reads. pages/pages.jsonl: every page of every capture.",
    "- records/<capture>/: the capture's manifest (manifest.json), a PDF of each page, the approvals in force,",
    "  and the RFC 3161 timestamp token over the manifest (manifest.json.tsr) where a Time Stamp Authority gave one.",
    `- records/<capture>/${CAPTURE_PACKAGE}/: for a capture stored with its own WACZ as it was made, that WACZ's`,
    "  datapackage.json and its signed, timestamped digest: what the capture held, certified when it was made.",
    "- datapackage.json lists every file with its size and SHA-256; datapackage-digest.json holds the hash of that list.",
    "",
    "To check it:",
    parts.fingerprint
      ? `- The hash of datapackage.json is signed (ECDSA P-384) by the firm's key with SHA-256 fingerprint ${parts.fingerprint};`
      : "- This file is not signed: the firm had configured no signing key when it was made.",
    ...(parts.fingerprint
      ? [
          "  ReplayWeb.page shows the signature as verified; `npm run records:verify -- <file>.wacz` checks everything.",
          "- When the signature was made: datapackage-digest.json's signedData.timeSignature is the firm's Time Stamp",
          "  Authority's RFC 3161 answer over the signature's bytes. To take both out and check them (jq and OpenSSL):",
          "    unzip -p <file>.wacz datapackage-digest.json > digest.json",
          "    jq -r .signedData.signature digest.json | base64 -d > signature.bin",
          "    jq -r .signedData.timeSignature digest.json | base64 -d > signature.tsr",
          "    openssl ts -verify -data signature.bin -in signature.tsr -CAfile records/tsa-ca.pem",
        ]
      : []),
    "- Trusted time of a capture, with OpenSSL (the CA is records/tsa-ca.pem when the export carried it):",
    "    unzip <file>.wacz 'records/*'",
    "    openssl ts -verify -data records/<capture>/manifest.json -in records/<capture>/manifest.json.tsr -CAfile records/tsa-ca.pem",
    '  "Verification: OK" means the manifest, which lists every file of the capture by its SHA-256, existed at the',
    "  time in the token; `openssl ts -reply -in records/<capture>/manifest.json.tsr -text` shows that time.",
    "",
  ];
  return lines.join("\n");
}
