/**
 * `npm run archive:verify -- <folder> [--manifest-sha256 <hex>]`: checks an archive written by
 * `npm run archive`. Exit 0 when intact; otherwise one line per problem, each naming the file.
 *
 * - manifest.json against manifest.json.sha256 and, when given, the hash recorded at archive time
 *   (the sidecar alone only shows accidental damage: whoever can rewrite the manifest can rewrite it too);
 * - every file the manifest lists, by SHA-256 and size; no file missing, none added;
 * - the WARC read back with warcio: every record's block and payload digest, a request for every
 *   response, and for every page a response with the recorded status whose HTML and text hash to
 *   the manifest's values; every approval in the manifest matches its page's text hash.
 */
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { WARCParser } from "warcio";
import { extractPageText, pageTextHash } from "../integrations/approval/text.ts";
import { decodeBody, filesUnder, hashFile, MANIFEST, MANIFEST_SHA256, manifestSchema, type Manifest } from "../lib/records/manifest.ts";
import { sha256Hex } from "../integrations/hash.ts";

interface WarcResponse {
  status: number;
  contentEncoding: string | null;
  payload: Uint8Array;
}

const CRLFCRLF = Buffer.from("\r\n\r\n");

/** Reads every record twice over: raw blocks for the digests, then parsed HTTP for the responses. */
async function readWarc(file: string, problems: string[]): Promise<Map<string, WarcResponse>> {
  const responses = new Map<string, WarcResponse>();
  const requests = new Set<string>();
  const name = file.split("/").pop();
  let records = 0;
  for await (const record of new WARCParser(createReadStream(file), { parseHttp: false })) {
    records++;
    const block = Buffer.from(await record.readFully(false));
    const id = `${name}: ${record.warcType} record ${record.warcTargetURI ?? record.warcHeader("WARC-Record-ID")}`;
    const blockDigest = record.warcBlockDigest;
    if (blockDigest && blockDigest !== `sha256:${sha256Hex(block)}`) problems.push(`${id}: block digest does not match`);
    const payloadDigest = record.warcPayloadDigest;
    if (payloadDigest) {
      const end = block.indexOf(CRLFCRLF);
      const payload = end < 0 ? block : block.subarray(end + 4);
      if (payloadDigest !== `sha256:${sha256Hex(payload)}`) problems.push(`${id}: payload digest does not match`);
    }
  }
  if (records === 0) problems.push(`${name}: no WARC records`);
  for await (const record of new WARCParser(createReadStream(file))) {
    const url = record.warcTargetURI ?? "";
    if (record.warcType === "request") requests.add(url);
    if (record.warcType === "response" && record.httpHeaders) {
      responses.set(url, {
        status: Number(record.httpHeaders.statusCode),
        contentEncoding: record.httpHeaders.headers.get("content-encoding") ?? null,
        payload: await record.readFully(false),
      });
    }
  }
  for (const url of responses.keys()) if (!requests.has(url)) problems.push(`${name}: no request record for ${url}`);
  return responses;
}

export async function verifyArchive(folder: string, expectedManifestSha256?: string): Promise<string[]> {
  const problems: string[] = [];
  const manifestFile = join(folder, MANIFEST);
  if (!existsSync(manifestFile)) return [`${MANIFEST}: missing`];
  const manifestBytes = readFileSync(manifestFile);
  const manifestSha256 = sha256Hex(manifestBytes);
  const sidecar = join(folder, MANIFEST_SHA256);
  if (!existsSync(sidecar)) problems.push(`${MANIFEST_SHA256}: missing`);
  else if (readFileSync(sidecar, "utf8").trim() !== `${manifestSha256}  ${MANIFEST}`)
    problems.push(`${MANIFEST}: its SHA-256 (${manifestSha256}) is not the one in ${MANIFEST_SHA256}`);
  if (expectedManifestSha256 && expectedManifestSha256.toLowerCase() !== manifestSha256)
    problems.push(`${MANIFEST}: its SHA-256 (${manifestSha256}) is not the recorded ${expectedManifestSha256}`);

  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(manifestBytes.toString("utf8")));
  } catch (error) {
    return [...problems, `${MANIFEST}: unreadable (${error instanceof Error ? error.message.split("\n")[0] : error})`];
  }

  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  for (const path of filesUnder(folder)) {
    if (path === MANIFEST || path === MANIFEST_SHA256) continue;
    const entry = listed.get(path);
    if (!entry) problems.push(`${path}: not listed in ${MANIFEST}`);
    else if (statSync(join(folder, path)).size !== entry.bytes || hashFile(join(folder, path)) !== entry.sha256)
      problems.push(`${path}: SHA-256 or size differs from ${MANIFEST}`);
    listed.delete(path);
  }
  for (const path of listed.keys()) problems.push(`${path}: listed in ${MANIFEST} but missing`);

  const warcFile = join(folder, manifest.warc);
  if (!existsSync(warcFile)) return problems;
  let responses: Map<string, WarcResponse>;
  try {
    responses = await readWarc(warcFile, problems);
  } catch (error) {
    problems.push(`${manifest.warc}: cannot be read as WARC (${error instanceof Error ? error.message : error})`);
    return problems;
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
      if (pageTextHash(extractPageText(html.toString("utf8"))) !== page.textSha256)
        problems.push(`${manifest.warc}: the text of ${page.url} does not hash to the manifest's textSha256`);
    } catch (error) {
      problems.push(`${manifest.warc}: the body of ${page.url} cannot be decoded (${error instanceof Error ? error.message : error})`);
    }
  }
  for (const approval of manifest.approvals) {
    const page = manifest.pages.find((p) => p.path === approval.page);
    if (page?.textSha256 !== approval.sha256) problems.push(`${MANIFEST}: the approval of ${approval.page} is not for the archived text`);
  }
  return problems;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { "manifest-sha256": { type: "string" } } });
  if (positionals.length !== 1) {
    console.error("usage: npm run archive:verify -- <archive folder> [--manifest-sha256 <hex>]");
    process.exit(2);
  }
  const folder = resolve(positionals[0]!);
  const problems = await verifyArchive(folder, values["manifest-sha256"]);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`archive:verify: ${problem}`);
    console.error(`archive:verify: ${folder} is NOT intact (${problems.length} problem${problems.length === 1 ? "" : "s"})`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(join(folder, MANIFEST), "utf8")) as Manifest;
  console.log(
    `archive:verify: ${folder} is intact: ${manifest.files.length} files, ${manifest.pages.length} pages, commit ${manifest.commit}, ` +
      `captured ${manifest.createdAt}; ${MANIFEST} sha256 ${sha256Hex(readFileSync(join(folder, MANIFEST)))}`,
  );
}
