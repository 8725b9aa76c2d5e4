/**
 * A WACZ's package as a validator reads it (specs.webrecorder.net/wacz/1.1.1): the names and shapes
 * of its files, the zip read back, and the checks that need nothing of the project's records (every
 * file listed with its size and hash, nothing unlisted, WARCs stored, the index made again, the pages
 * file, the digest, the signature over it and the TSA's token over the signature). lib/records/wacz.ts
 * writes WACZs and checks the records inside; lib/records/verify.ts checks the WACZ stored with a
 * capture (`capture.wacz`) against the capture's own files.
 */
import { createPublicKey, verify as verifySignature } from "node:crypto";
import { Readable } from "node:stream";
import { CDXIndexer } from "warcio";
import yauzl from "yauzl";
import { sha256Hex } from "../hash.ts";
import { verifyTimestamp } from "./timestamp.ts";

/** The spec the file follows: 1.1.1, the one ReplayWeb.page 2.5 reads (it refuses 1.2.0's `profile: "wacz"`). */
export const WACZ_VERSION = "1.1.1";
export const WACZ_PROFILE = "data-package";
/** The first line of `pages/pages.jsonl`, as the spec writes it. */
export const PAGES_HEADER = '{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}';
export const DATAPACKAGE = "datapackage.json";
export const DIGEST = "datapackage-digest.json";
export const INDEX = "indexes/index.cdxj";
export const PAGES = "pages/pages.jsonl";
/** The TSA's CA certificate, when the export was given one: `openssl ts -verify` offline. */
export const WACZ_CA = "records/tsa-ca.pem";
/** The files inside a capture's own WACZ that say what it held when it was made: kept in an export under records/<capture>/. */
export const CAPTURE_PACKAGE = "capture-wacz";

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

export const sha = (bytes: Buffer) => `sha256:${sha256Hex(bytes)}`;

/** The CDXJ lines of WARCs given by their names under `archive/` (warcio's indexer). */
export async function cdxjLines(warcs: Array<{ name: string; bytes: Buffer }>): Promise<string[]> {
  const indexer = new CDXIndexer({ format: "cdxj" });
  const lines: string[] = [];
  for await (const cdx of indexer.iterIndex(warcs.map(({ name, bytes }) => ({ filename: name, reader: Readable.from([bytes]) }))))
    lines.push(indexer.serializeCDXJ(cdx).trimEnd());
  return lines;
}

/** The index file: every line sorted, as a replayer looks them up. */
export const cdxjFile = (lines: string[]) => (lines.length ? `${[...lines].sort().join("\n")}\n` : "");

export interface ZipEntry {
  bytes: Buffer;
  /** 0: stored; 8: deflated. */
  method: number;
}

export async function readZip(file: string | Buffer): Promise<Map<string, ZipEntry>> {
  const zipFile = typeof file === "string" ? await yauzl.openPromise(file, { autoClose: false }) : await yauzl.fromBufferPromise(file);
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

export interface PackageCheck {
  /** The zip's entries; empty when it could not be read. */
  entries: Map<string, ZipEntry>;
  /** One line per problem, each naming the file. */
  problems: string[];
  signed: boolean;
  /** The signing key's SHA-256 fingerprint, when signed. */
  fingerprint: string | null;
  /** When the TSA says the signature existed (its token in `timeSignature` checked against the CA); null without one. */
  signedAt: string | null;
}

/**
 * Checks a WACZ as a validator would: every file listed with its size and hash, nothing unlisted, WARCs
 * stored, the index equal to one made again, the pages file, the digest and the signature over it.
 */
export async function checkPackage(file: string | Buffer, tsaCa?: string): Promise<PackageCheck> {
  const problems: string[] = [];
  let entries: Map<string, ZipEntry>;
  const unsigned = { signed: false, fingerprint: null, signedAt: null };
  try {
    entries = await readZip(file);
  } catch (error) {
    const name = typeof file === "string" ? file : "the WACZ";
    problems.push(`${name}: not a readable zip (${error instanceof Error ? error.message : error})`);
    return { entries: new Map(), problems, ...unsigned };
  }
  const done = () => ({ entries, problems, ...unsigned });
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
  const ownCa = entries.get(WACZ_CA)?.bytes.toString("utf8");
  const digestEntry = entries.get(DIGEST);
  if (!digestEntry) problems.push(`${DIGEST}: missing`);
  else ({ signed, fingerprint, signedAt } = await checkDigest(packageEntry.bytes, digestEntry.bytes, "", tsaCa ?? ownCa, problems));
  return { entries, problems, signed, fingerprint, signedAt };
}

/**
 * Checks a datapackage's digest (`prefix` names where they are: "" at the root, records/<capture>/capture-wacz/
 * for a capture's own): the hash, the signature over it and the TSA's token over the signature. Adds a
 * line per problem; returns whether it is signed, by which key, and when by the token.
 */
export async function checkDigest(
  packageBytes: Buffer,
  digestBytes: Buffer,
  prefix: string,
  tsaCa: string | undefined,
  problems: string[],
) {
  const found = { signed: false, fingerprint: null as string | null, signedAt: null as string | null };
  try {
    const digest = JSON.parse(digestBytes.toString("utf8")) as { path?: string; hash?: string; signedData?: SignedData };
    const hash = sha(packageBytes);
    if (digest.path !== DATAPACKAGE || digest.hash !== hash)
      problems.push(`${prefix}${DATAPACKAGE}: changed after it was signed (its hash is not the one in ${prefix}${DIGEST})`);
    if (digest.signedData) {
      found.signed = true;
      const { signature, publicKey, hash: signedHash } = digest.signedData;
      const key = createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" });
      found.fingerprint = sha256Hex(Buffer.from(publicKey, "base64"));
      const valid =
        key.asymmetricKeyDetails?.namedCurve === "secp384r1" &&
        verifySignature("sha256", Buffer.from(signedHash, "utf8"), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64"));
      if (!valid || signedHash !== digest.hash)
        problems.push(`${prefix}${DIGEST}: its signature does not verify over the hash of ${prefix}${DATAPACKAGE}`);
      if (digest.signedData.timeSignature) {
        const time = await verifyTimestamp(Buffer.from(digest.signedData.timeSignature, "base64"), Buffer.from(signature, "base64"), tsaCa);
        if (time.ok) found.signedAt = time.genTime?.toISOString() ?? null;
        else for (const problem of time.problems) problems.push(`${prefix}${DIGEST}: timeSignature: ${problem}`);
      }
    }
  } catch (error) {
    problems.push(`${prefix}${DIGEST}: unreadable (${error instanceof Error ? error.message : error})`);
  }
  return found;
}
