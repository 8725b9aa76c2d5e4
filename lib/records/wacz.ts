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
import { createHash, createPrivateKey, createPublicKey, sign as signData, verify as verifySignature, type KeyObject } from "node:crypto";
import { createWriteStream, renameSync, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CDXIndexer } from "warcio";
import yauzl from "yauzl";
import yazl from "yazl";
import { sha256Hex } from "../hash.ts";
import { ExportError, type SelectedCapture } from "./export.ts";
import { MANIFEST, parseManifest } from "./manifest.ts";
import { verifyCapture } from "./verify.ts";
import { verifyTimestamp } from "./timestamp.ts";
import { CAPTURE_APPROVALS } from "./export-index.ts";
import type { ArchiveStore } from "./store.ts";
import { readWarc } from "./warc-read.ts";

/** The spec the file follows: 1.1.1, the one ReplayWeb.page 2.5 reads (it refuses 1.2.0's `profile: "wacz"`). */
export const WACZ_VERSION = "1.1.1";
export const WACZ_PROFILE = "data-package";
/** The first line of `pages/pages.jsonl`, as the spec writes it. */
export const PAGES_HEADER = '{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}';
export const DATAPACKAGE = "datapackage.json";
export const DIGEST = "datapackage-digest.json";
const INDEX = "indexes/index.cdxj";
const PAGES = "pages/pages.jsonl";
const SOFTWARE = "institutional-trading-site records:export";
/** The TSA's CA certificate, when the export was given one: `openssl ts -verify` offline. */
export const WACZ_CA = "records/tsa-ca.pem";

export interface WaczResource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
}

export interface DataPackage {
  profile: string;
  wacz_version: string;
  title: string;
  created: string;
  software: string;
  mainPageURL?: string;
  mainPageDate?: string;
  resources: WaczResource[];
}

export interface SignedData {
  hash: string;
  signature: string;
  publicKey: string;
  created: string;
  software: string;
  /** The firm's TSA's RFC 3161 answer (TimeStampResp, base64) over the signature's bytes: when it was signed. */
  timeSignature?: string;
}

/** The firm's signing key (PEM, EC P-384): its public half and fingerprint go in the export's README. */
export function loadSigningKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "secp384r1")
    throw new ExportError(
      "The WACZ signing key must be an EC key on the P-384 curve (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384).",
    );
  return key;
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

const sha = (bytes: Buffer) => `sha256:${sha256Hex(bytes)}`;

/** The CDXJ lines of WARCs given by their names under `archive/` (warcio's indexer). */
async function cdxjLines(warcs: Array<{ name: string; bytes: Buffer }>): Promise<string[]> {
  const indexer = new CDXIndexer({ format: "cdxj" });
  const lines: string[] = [];
  for await (const cdx of indexer.iterIndex(warcs.map(({ name, bytes }) => ({ filename: name, reader: Readable.from([bytes]) }))))
    lines.push(indexer.serializeCDXJ(cdx).trimEnd());
  return lines;
}

/** The index file: every line sorted, as a replayer looks them up. */
const cdxjFile = (lines: string[]) => (lines.length ? `${[...lines].sort().join("\n")}\n` : "");

/** The time of each response in a WARC, by URL: the moment a replayer shows for the page. */
async function responseTimes(bytes: Buffer): Promise<Map<string, string>> {
  const times = new Map<string, string>();
  for await (const record of readWarc(bytes)) if (record.type === "response" && !times.has(record.url)) times.set(record.url, record.date);
  return times;
}

export interface WriteWaczOptions {
  store: ArchiveStore;
  captures: SelectedCapture[];
  file: string;
  /** The examiner's README (how to open the file and check its time); written at the root. */
  readme: (parts: { fingerprint: string | null }) => string;
  key?: KeyObject;
  /** Asks the firm's TSA for a token over the signature's bytes (lib/records/timestamp.ts); none: no trusted time. */
  timestamp?: (data: Uint8Array) => Promise<Buffer>;
  /** The TSA's CA certificate (PEM), put in as records/tsa-ca.pem. */
  tsaCa?: string;
  now?: Date;
}

export interface WaczResult {
  file: string;
  sha256: string;
  bytes: number;
  captures: number;
  files: number;
  /** Why the signature has no trusted time, when a TSA was asked and did not give it. */
  untimed?: string;
}

/** Writes the WACZ (to a partial file, renamed when complete). */
export async function writeWacz(options: WriteWaczOptions): Promise<WaczResult> {
  const { store, file } = options;
  const now = options.now ?? new Date();
  const listed = await store.list();
  const resources: WaczResource[] = [];
  const zip = new yazl.ZipFile();
  const add = (path: string, bytes: Buffer, compress = true) => {
    resources.push({ name: path.split("/").pop()!, path, hash: sha(bytes), bytes: bytes.length });
    zip.addBuffer(bytes, path, { mtime: now, compress });
  };
  // Each WARC is read once here, for its index lines and its responses' times, and not kept.
  const cdx: string[] = [];
  /** The WARCs put in, by name: their SHA-256. */
  const archived = new Map<string, string>();
  const pages: string[] = [];
  let mainPage: { url: string; ts: string } | undefined;
  for (const { entry } of options.captures) {
    const stored = listed.get(entry.name);
    if (!stored) throw new ExportError(`The capture ${entry.name} is no longer in ${store.label}; export again.`);
    const manifestBytes = await store.read(entry.name, MANIFEST);
    if (!manifestBytes || sha256Hex(manifestBytes) !== entry.manifestSha256)
      throw new ExportError(`The manifest of ${entry.name} in ${store.label} changed since the records' index read it; export again.`);
    const manifest = parseManifest(manifestBytes);
    let times = new Map<string, string>();
    for (const { path } of stored) {
      const bytes = await store.read(entry.name, path);
      if (!bytes) throw new ExportError(`${entry.name}/${path} is no longer in ${store.label}; export again.`);
      if (path === manifest.warc) {
        times = await responseTimes(Buffer.from(bytes));
        // A capture derived from another shares its WARC: the same bytes, put in and indexed once.
        const known = archived.get(path);
        if (known && known !== sha256Hex(bytes))
          throw new ExportError(`Two captures have different WARCs named ${path}; they cannot both be in one WACZ.`);
        if (known) continue;
        archived.set(path, sha256Hex(bytes));
        // Stored as it is: a replayer reads its records at their offsets.
        add(`archive/${path}`, Buffer.from(bytes), false);
        cdx.push(...(await cdxjLines([{ name: path, bytes: Buffer.from(bytes) }])));
      } else add(`records/${entry.name}/${path}`, Buffer.from(bytes), !/\.(gz|pdf)$/i.test(path));
    }
    const approvals = manifest.approvals;
    add(`records/${entry.name}/${CAPTURE_APPROVALS}`, Buffer.from(`${JSON.stringify({ capture: entry.name, approvals }, null, 2)}\n`));
    for (const page of manifest.pages) {
      const ts = times.get(page.url);
      if (!ts) continue;
      const title = "title" in page ? page.title : page.path;
      const approver = approvals.find((a) => a.page === page.path)?.approvedBy;
      const line = {
        id: sha256Hex(`${entry.name} ${page.url}`).slice(0, 32),
        url: page.url,
        ts,
        title: `${title}: approved by ${approver ?? "no one on record"}`,
      };
      pages.push(JSON.stringify(line));
      if (page.path === "/") mainPage = { url: page.url, ts };
    }
  }
  if (archived.size === 0) throw new ExportError("None of the chosen captures has a WARC, so there is nothing to replay.");
  add(INDEX, Buffer.from(cdxjFile(cdx)));
  add(PAGES, Buffer.from(`${[PAGES_HEADER, ...pages].join("\n")}\n`));
  const key = options.key;
  if (options.tsaCa) add(WACZ_CA, Buffer.from(options.tsaCa));
  add("README.txt", Buffer.from(options.readme({ fingerprint: key ? publicKeyOf(key).fingerprint : null })));
  const datapackage: DataPackage = {
    profile: WACZ_PROFILE,
    wacz_version: WACZ_VERSION,
    title: `Website records, ${options.captures.length} capture(s)`,
    created: now.toISOString(),
    software: SOFTWARE,
    ...(mainPage ? { mainPageURL: mainPage.url, mainPageDate: mainPage.ts } : {}),
    resources,
  };
  const packageBytes = Buffer.from(`${JSON.stringify(datapackage, null, 2)}\n`);
  const hash = sha(packageBytes);
  zip.addBuffer(packageBytes, DATAPACKAGE, { mtime: now });
  const signedData = key ? signHash(hash, key, now) : undefined;
  // The token cannot be a file of its own: datapackage.json, which the signature covers, would have to list it.
  // A TSA that does not answer leaves the signature without trusted time, said in the result: the captures inside keep theirs.
  let untimed: string | undefined;
  if (signedData && options.timestamp)
    try {
      signedData.timeSignature = (await options.timestamp(Buffer.from(signedData.signature, "base64"))).toString("base64");
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
  return {
    file,
    sha256: whole.digest("hex"),
    bytes,
    captures: options.captures.length,
    files: resources.length + 2,
    ...(untimed ? { untimed } : {}),
  };
}

interface ZipEntry {
  bytes: Buffer;
  /** 0: stored; 8: deflated. */
  method: number;
}

async function readZip(file: string): Promise<Map<string, ZipEntry>> {
  const zipFile = await yauzl.openPromise(file, { autoClose: false });
  const out = new Map<string, ZipEntry>();
  try {
    for await (const entry of zipFile.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zipFile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      out.set(entry.fileName, { bytes: Buffer.concat(chunks), method: entry.compressionMethod });
    }
  } finally {
    zipFile.close();
  }
  return out;
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
}

const NOTHING_FOUND = { captures: 0, signed: false, fingerprint: null, signedAt: null };

/** Checks a WACZ as a validator would, then the project's records inside it. */
export async function verifyWacz(file: string, options: { tsaCa?: string } = {}): Promise<WaczCheck> {
  const problems: string[] = [];
  let entries: Map<string, ZipEntry>;
  try {
    entries = await readZip(file);
  } catch (error) {
    return { ok: false, problems: [`${file}: not a readable zip (${error instanceof Error ? error.message : error})`], ...NOTHING_FOUND };
  }
  const done = (
    found: { captures: number; signed: boolean; fingerprint: string | null; signedAt: string | null } = NOTHING_FOUND,
  ): WaczCheck => ({
    ok: problems.length === 0,
    problems,
    ...found,
  });
  const packageEntry = entries.get(DATAPACKAGE);
  if (!packageEntry) return (problems.push(`${DATAPACKAGE}: missing, so nothing says what the file holds`), done());
  let datapackage: DataPackage;
  try {
    datapackage = JSON.parse(packageEntry.bytes.toString("utf8")) as DataPackage;
  } catch {
    return (problems.push(`${DATAPACKAGE}: not JSON`), done());
  }
  if (datapackage.profile !== WACZ_PROFILE || datapackage.wacz_version !== WACZ_VERSION)
    problems.push(
      `${DATAPACKAGE}: profile "${datapackage.profile}" and wacz_version "${datapackage.wacz_version}", not "${WACZ_PROFILE}" and "${WACZ_VERSION}"`,
    );
  const listed = new Map((Array.isArray(datapackage.resources) ? datapackage.resources : []).map((r) => [r.path, r]));
  for (const [path, resource] of listed) {
    const entry = entries.get(path);
    if (!entry) problems.push(`${path}: listed in ${DATAPACKAGE} but not in the file`);
    else if (entry.bytes.length !== resource.bytes)
      problems.push(`${path}: ${entry.bytes.length} bytes, where ${DATAPACKAGE} lists ${resource.bytes}`);
    else if (sha(entry.bytes) !== resource.hash)
      problems.push(`${path}: its SHA-256 is not the one ${DATAPACKAGE} lists (changed after export)`);
  }
  for (const [path, entry] of entries) {
    if (path !== DATAPACKAGE && path !== DIGEST && !listed.has(path))
      problems.push(`${path}: in the file but not listed in ${DATAPACKAGE}`);
    if (path.startsWith("archive/") && entry.method !== 0)
      problems.push(`${path}: compressed again in the zip; a WARC is stored as it is, for a replayer to read at its offsets`);
  }

  // The index, made again from the WARCs, equals the one stored.
  const warcs = [...entries]
    .filter(([path]) => path.startsWith("archive/"))
    .map(([path, { bytes }]) => ({ name: path.slice("archive/".length), bytes }));
  const index = entries.get(INDEX);
  try {
    if (!index) problems.push(`${INDEX}: missing`);
    else if (cdxjFile(await cdxjLines(warcs)) !== index.bytes.toString("utf8"))
      problems.push(`${INDEX}: not the index of the WARCs in archive/ (made again, it differs)`);
  } catch (error) {
    problems.push(`${INDEX}: the WARCs could not be indexed again (${error instanceof Error ? error.message : error})`);
  }

  const pagesEntry = entries.get(PAGES);
  if (!pagesEntry) problems.push(`${PAGES}: missing`);
  else {
    const lines = pagesEntry.bytes.toString("utf8").split("\n").filter(Boolean);
    if (lines[0] !== PAGES_HEADER) problems.push(`${PAGES} line 1: not the header ${PAGES_HEADER}`);
    lines.slice(1).forEach((line, i) => {
      let page: { url?: unknown; ts?: unknown };
      try {
        page = JSON.parse(line) as typeof page;
      } catch {
        return void problems.push(`${PAGES} line ${i + 2}: not JSON`);
      }
      if (typeof page.url !== "string" || !page.url) problems.push(`${PAGES} line ${i + 2}: no url`);
      if (typeof page.ts !== "string" || Number.isNaN(Date.parse(page.ts)))
        problems.push(`${PAGES} line ${i + 2}: no ts (the time of the page's capture)`);
    });
  }

  // The digest, and the signature over it.
  let signed = false;
  let fingerprint: string | null = null;
  let signedAt: string | null = null;
  const digestEntry = entries.get(DIGEST);
  if (!digestEntry) problems.push(`${DIGEST}: missing`);
  else {
    try {
      const digest = JSON.parse(digestEntry.bytes.toString("utf8")) as { path?: string; hash?: string; signedData?: SignedData };
      const hash = sha(packageEntry.bytes);
      if (digest.path !== DATAPACKAGE || digest.hash !== hash)
        problems.push(`${DATAPACKAGE}: changed after it was signed (its hash is not the one in ${DIGEST})`);
      if (digest.signedData) {
        signed = true;
        const { signature, publicKey, hash: signedHash } = digest.signedData;
        const key = createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" });
        fingerprint = sha256Hex(Buffer.from(publicKey, "base64"));
        const valid =
          key.asymmetricKeyDetails?.namedCurve === "secp384r1" &&
          verifySignature("sha256", Buffer.from(signedHash, "utf8"), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64"));
        if (!valid || signedHash !== digest.hash) problems.push(`${DIGEST}: its signature does not verify over the hash of ${DATAPACKAGE}`);
        if (digest.signedData.timeSignature) {
          const time = await verifyTimestamp(
            Buffer.from(digest.signedData.timeSignature, "base64"),
            Buffer.from(signature, "base64"),
            options.tsaCa ?? entries.get(WACZ_CA)?.bytes.toString("utf8"),
          );
          if (time.ok) signedAt = time.genTime?.toISOString() ?? null;
          else for (const problem of time.problems) problems.push(`${DIGEST}: timeSignature: ${problem}`);
        }
      }
    } catch (error) {
      problems.push(`${DIGEST}: unreadable (${error instanceof Error ? error.message : error})`);
    }
  }

  // The project's records inside, each capture checked as in the store (lib/records/verify.ts): its
  // manifest, every file it lists by size and hash, the WARC's records against the pages, the token.
  const captures = [...entries.keys()].filter((path) => /^records\/[^/]+\/manifest\.json$/.test(path));
  const ownCa = entries.get(WACZ_CA)?.bytes.toString("utf8");
  for (const path of captures) {
    const folder = path.slice(0, -MANIFEST.length);
    let warc: string | undefined;
    try {
      warc = parseManifest(entries.get(path)!.bytes).warc;
    } catch {
      // verifyCapture names what is wrong with the manifest.
    }
    const inZip = (name: string) => (name === warc ? `archive/${name}` : `${folder}${name}`);
    const names = [...entries.keys()]
      .filter((n) => n.startsWith(folder) && n !== `${folder}${CAPTURE_APPROVALS}`)
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
  return done({ captures: captures.length, signed, fingerprint, signedAt });
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
