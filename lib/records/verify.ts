/**
 * Verification shown, not assumed: every check of a capture recomputed from the bytes as stored (a
 * folder, the archive store, or an examiner's export), each a line that passes or fails with one
 * sentence naming the file. The manifest against its recorded hash; every listed file by SHA-256 and
 * size, none missing, none added; the WARC read back (record digests, a request for every response, each
 * page's HTML and text hashing to the manifest's values); the approvals against the pages; the RFC 3161
 * token against the manifest and the TSA's CA; on S3, every object's Object Lock read back.
 */
import { extractPageText, pageTextHash } from "../approval/text.ts";
import { sha256Hex } from "../hash.ts";
import { dateWritten, dayWritten } from "../dates.ts";
import {
  approvalsFile,
  BESIDE_MANIFEST,
  CAPTURE_APPROVALS,
  CAPTURE_WACZ,
  decodeBody,
  MANIFEST,
  MANIFEST_SHA256,
  parseManifest,
  TIMESTAMP_PENDING,
  textRuleOf,
  TIMESTAMP_TOKEN,
  type Manifest,
} from "./manifest.ts";
import type { CaptureSource } from "./store-rules.ts";
import { verifyTimestamp, type TimestampCheck } from "./timestamp.ts";
import { checkPackage } from "./wacz-package.ts";
import { readWarc } from "./warc-read.ts";

export type { CaptureSource };

export interface CheckLine {
  /** What is checked, as a compliance officer would name it. */
  label: string;
  ok: boolean;
  /** One sentence: what was found. */
  text: string;
  /** Every problem, each naming its file. */
  problems: string[];
}

export interface Verification {
  ok: boolean;
  /** The capture has its manifest (it finished); when not, what is there and what is missing. */
  complete: boolean;
  lines: CheckLine[];
  problems: string[];
  manifest?: Manifest;
  manifestSha256?: string;
  timestamp?: TimestampCheck;
  /** The TSA could not certify the capture as it was made (its token, when there is one, came later). */
  certifiedLate?: boolean;
}

export interface VerifyOptions {
  /** The manifest's SHA-256 recorded elsewhere (the deploy job's summary, an export's index). */
  expectedManifestSha256?: string;
  /** The TSA's CA certificate (PEM), to check the timestamp token; undefined: the token is reported unchecked. */
  tsaCa?: string;
  /** Read Object Lock back for every file (S3): the mode must be COMPLIANCE and retain-until this late or later. */
  lockedUntil?: Date;
}

const line = (label: string, okText: string, problems: string[], failText?: string): CheckLine => ({
  label,
  ok: problems.length === 0,
  text: problems.length === 0 ? okText : (failText ?? problems[0]!),
  problems,
});

interface WarcResponse {
  status: number;
  contentEncoding: string | null;
  payload: Uint8Array;
}

/** Every record's digests against its bytes, and the responses by URL (lib/records/warc-read.ts). */
async function readResponses(name: string, bytes: Buffer, problems: string[]): Promise<Map<string, WarcResponse>> {
  const responses = new Map<string, WarcResponse>();
  const requests = new Set<string>();
  let records = 0;
  for await (const record of readWarc(bytes)) {
    records++;
    const id = `${name}: ${record.type} record ${record.url || record.recordId}`;
    if (record.blockDigest && record.blockDigest !== `sha256:${sha256Hex(record.block)}`)
      problems.push(`${id}: block digest does not match`);
    if (record.payloadDigest) {
      const payload = record.http?.payload ?? record.block;
      if (record.payloadDigest !== `sha256:${sha256Hex(payload)}`) problems.push(`${id}: payload digest does not match`);
    }
    if (record.type === "request") requests.add(record.url);
    if (record.type === "response" && record.http) {
      const encoding = record.http.headers.find(([header]) => header.toLowerCase() === "content-encoding");
      responses.set(record.url, { status: record.http.status, contentEncoding: encoding?.[1] ?? null, payload: record.http.payload });
    }
  }
  if (records === 0) problems.push(`${name}: no WARC records`);
  for (const url of responses.keys()) if (!requests.has(url)) problems.push(`${name}: no request record for ${url}`);
  return responses;
}

async function checkWarc(manifest: Manifest, bytes: Buffer | undefined): Promise<string[]> {
  const problems: string[] = [];
  if (!bytes) return problems; // reported as a missing file
  let responses: Map<string, WarcResponse>;
  try {
    responses = await readResponses(manifest.warc, bytes, problems);
  } catch (error) {
    return [`${manifest.warc}: cannot be read as WARC (${error instanceof Error ? error.message : error})`];
  }
  for (const page of manifest.pages) {
    const response = responses.get(page.url);
    if (!response) {
      problems.push(`${manifest.warc}: no response for ${page.url} (${page.path})`);
      continue;
    }
    if (response.status !== page.status)
      problems.push(`${manifest.warc}: ${page.url} has status ${response.status}, the manifest ${page.status}`);
    try {
      const html = decodeBody(response.payload, response.contentEncoding);
      if (sha256Hex(html) !== page.htmlSha256)
        problems.push(`${manifest.warc}: the HTML of ${page.url} does not hash to the manifest's htmlSha256`);
      if (pageTextHash(extractPageText(html.toString("utf8"), textRuleOf(manifest))) !== page.textSha256)
        problems.push(`${manifest.warc}: the text of ${page.url} does not hash to the manifest's textSha256`);
    } catch (error) {
      problems.push(`${manifest.warc}: the body of ${page.url} cannot be decoded (${error instanceof Error ? error.message : error})`);
    }
  }
  return problems;
}

/** Format 1 captured only approved text; format 2 records the approval in force, and drift separately. */
function checkApprovals(manifest: Manifest): string[] {
  return manifest.approvals.flatMap((approval) => {
    const page = manifest.pages.find((p) => p.path === approval.page);
    const covers = page && ("approvedSha256" in page ? page.approvedSha256 : page.textSha256);
    return covers === approval.sha256 ? [] : [`${MANIFEST}: the approval of ${approval.page} is not for that page's approved text`];
  });
}

/**
 * The WACZ stored with the capture (lib/records/wacz.ts): a package that checks out as a validator
 * checks it (its files by their hashes, its index, its signature and the TSA's time of it), holding
 * this capture's manifest, and whose WARC and records are the capture's own files byte for byte, so
 * that everything this check proves of the capture holds of what the WACZ replays.
 */
async function checkCaptureWacz(
  read: (path: string) => Promise<Buffer | undefined>,
  manifest: Manifest,
  manifestBytes: Buffer,
  tsaCa: string | undefined,
): Promise<CheckLine> {
  const check = await checkPackage((await read(CAPTURE_WACZ)) ?? Buffer.alloc(0), tsaCa);
  const problems = check.problems.map((problem) => `${CAPTURE_WACZ}: ${problem}`);
  const manifests = [...check.entries.keys()].filter((path) => /^records\/[^/]+\/manifest\.json$/.test(path));
  const held = manifests.length === 1 ? check.entries.get(manifests[0]!)!.bytes : undefined;
  if (check.entries.size && !held?.equals(manifestBytes)) problems.push(`${CAPTURE_WACZ}: does not hold this capture's ${MANIFEST}`);
  else if (held) {
    const own = manifests[0]!.slice(0, -MANIFEST.length);
    const name = own.slice("records/".length, -1);
    if (!check.entries.has(`archive/${manifest.warc}`))
      problems.push(`${CAPTURE_WACZ}: does not hold the capture's WARC, ${manifest.warc}`);
    for (const [path, { bytes }] of check.entries) {
      let ours: Buffer | undefined;
      if (path.startsWith("archive/")) ours = path === `archive/${manifest.warc}` ? await read(manifest.warc) : undefined;
      else if (path === `${own}${CAPTURE_APPROVALS}`) ours = Buffer.from(approvalsFile(name, manifest.approvals));
      else if (path.startsWith(own)) ours = await read(path.slice(own.length));
      else continue;
      if (!ours) problems.push(`${CAPTURE_WACZ}: ${path} is in it, but the capture has no such file`);
      else if (!ours.equals(bytes)) problems.push(`${CAPTURE_WACZ}: ${path} is not the capture's own file`);
    }
  }
  const signer = check.signed
    ? `signed by the key with SHA-256 fingerprint ${check.fingerprint?.slice(0, 12)}…${check.signedAt ? ` and timestamped on ${dateWritten(new Date(check.signedAt), true)}` : ", without trusted time"}`
    : "not signed (no signing key was configured when it was made)";
  return line(
    "WACZ",
    `${CAPTURE_WACZ} holds this capture for a replayer (its WARC, index, pages and records), written as it was made; ${signer}.`,
    problems,
  );
}

export async function verifyCapture(from: CaptureSource, options: VerifyOptions = {}): Promise<Verification> {
  // Each file is read once (the WARC is both hashed and parsed).
  const cache = new Map<string, Promise<Buffer | undefined>>();
  const source = { ...from, read: (path: string) => cache.get(path) ?? cache.set(path, from.read(path)).get(path)! };
  const stored = await source.files();
  const manifestBytes = await source.read(MANIFEST);
  if (!manifestBytes) {
    const there = stored.map((f) => f.path);
    const problem = `${MANIFEST}: missing, so the capture is incomplete (it has ${there.length ? there.join(", ") : "no files"})`;
    const lines = [
      line("Capture complete", "", [problem], "The capture never finished: it has no manifest, so nothing in it can be checked."),
    ];
    return { ok: false, complete: false, lines, problems: [problem] };
  }
  const manifestSha256 = sha256Hex(manifestBytes);
  const manifestProblems: string[] = [];
  const sidecar = await source.read(MANIFEST_SHA256);
  if (!sidecar) manifestProblems.push(`${MANIFEST_SHA256}: missing`);
  else if (sidecar.toString("utf8").trim() !== `${manifestSha256}  ${MANIFEST}`)
    manifestProblems.push(`${MANIFEST}: its SHA-256 (${manifestSha256}) is not the one in ${MANIFEST_SHA256}`);
  if (options.expectedManifestSha256 && options.expectedManifestSha256.toLowerCase() !== manifestSha256)
    manifestProblems.push(`${MANIFEST}: its SHA-256 (${manifestSha256}) is not the recorded ${options.expectedManifestSha256}`);
  let manifest: Manifest;
  try {
    manifest = parseManifest(manifestBytes);
  } catch (error) {
    manifestProblems.push(error instanceof Error ? error.message : String(error));
    const lines = [line("Manifest", "", manifestProblems)];
    return { ok: false, complete: true, lines, problems: manifestProblems, manifestSha256 };
  }

  const fileProblems: string[] = [];
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  for (const { path, bytes } of stored) {
    if ((BESIDE_MANIFEST as readonly string[]).includes(path)) continue;
    const entry = listed.get(path);
    listed.delete(path);
    if (!entry) fileProblems.push(`${path}: not listed in ${MANIFEST}`);
    else if (bytes !== entry.bytes || sha256Hex((await source.read(path)) ?? Buffer.alloc(0)) !== entry.sha256)
      fileProblems.push(`${path}: altered (its SHA-256 or size differs from ${MANIFEST})`);
  }
  for (const path of listed.keys()) fileProblems.push(`${path}: missing (listed in ${MANIFEST})`);
  const warcProblems = await checkWarc(manifest, listed.has(manifest.warc) ? undefined : await source.read(manifest.warc));

  const lines = [
    line("Manifest", `Its SHA-256 is ${manifestSha256.slice(0, 12)}…, as recorded beside it.`, manifestProblems),
    line("Files", `All ${manifest.files.length} files hash to the manifest's SHA-256.`, fileProblems),
    line("Web archive (WARC)", `Every record's digest matches; every page's HTML and text hash as recorded.`, warcProblems),
    line("Approvals", "Every approval is for its page's approved text.", checkApprovals(manifest)),
  ];

  const token = await source.read(TIMESTAMP_TOKEN);
  // The TSA could not certify the capture as it was made: its token, if there is one now, came later.
  const late = stored.some((f) => f.path === TIMESTAMP_PENDING);
  let timestamp: TimestampCheck | undefined;
  if (token) {
    timestamp = await verifyTimestamp(token, manifestBytes, options.tsaCa);
    lines.push(
      line(
        "Trusted time",
        `A Time Stamp Authority${timestamp.tsa ? ` (${timestamp.tsa})` : ""} signed this manifest's hash on ${timestamp.genTime ? dateWritten(timestamp.genTime, true) : "an unreadable date"}${late ? ", later than the capture: it could not be reached when the capture was made" : ""}.`,
        timestamp.problems.map((p) => `${TIMESTAMP_TOKEN}: ${p}`),
      ),
    );
  } else if (late)
    lines.push({
      label: "Trusted time",
      ok: true,
      text: "Not yet certified: the Time Stamp Authority could not be reached when this capture was made, and the next npm run records:capture asks it again; until then the time is the capturing machine's clock.",
      problems: [],
    });
  else
    lines.push({ label: "Trusted time", ok: true, text: "No timestamp token: the time is the capturing machine's clock.", problems: [] });

  const wacz = stored.find((f) => f.path === CAPTURE_WACZ);
  if (wacz) lines.push(await checkCaptureWacz(source.read, manifest, manifestBytes, options.tsaCa));

  if (from.retention) {
    const lockProblems: string[] = [];
    let earliest: Date | undefined;
    for (const { path } of stored) {
      const retention = await from.retention(path);
      if (retention?.mode !== "COMPLIANCE") lockProblems.push(`${path}: not locked in COMPLIANCE mode (${retention?.mode ?? "no lock"})`);
      else if (!retention.retainUntil || (options.lockedUntil && retention.retainUntil < options.lockedUntil))
        lockProblems.push(`${path}: locked only until ${retention.retainUntil?.toISOString() ?? "no date"}`);
      else if (!earliest || retention.retainUntil < earliest) earliest = retention.retainUntil;
    }
    lines.push(
      line(
        "Write-once storage",
        `Every object is locked in COMPLIANCE mode until ${earliest ? dayWritten(earliest) : "an unknown day"} or later.`,
        lockProblems,
      ),
    );
  }
  const problems = lines.flatMap((l) => l.problems);
  return { ok: problems.length === 0, complete: true, lines, problems, manifest, manifestSha256, timestamp, certifiedLate: late };
}
