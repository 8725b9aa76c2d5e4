/**
 * The examiner's export as a WACZ (lib/records/wacz.ts, `npm run records:export -- --format wacz`) and
 * its check (`npm run records:verify -- x.wacz`): the run's two real captures of the built site
 * (tests/records/fixtures.ts: the site as deployed, and a copy drifted from it, captured after) and one
 * derived from the first on 14 March 2026, which shares its WARC, in one signed WACZ. Then five altered
 * copies, each refused with a line naming the file.
 */
import { execFile, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import yazl from "yazl";
import { sha256Hex } from "../../lib/hash.ts";
import { Catalog, cacheFileFor } from "../../lib/records/catalog.ts";
import { selectForExport } from "../../lib/records/export.ts";
import { FolderStore, storeSource } from "../../lib/records/store.ts";
import { verifyCapture } from "../../lib/records/verify.ts";
import { requestTimestamp } from "../../lib/records/timestamp.ts";
import { readWarc } from "../../lib/records/warc-read.ts";
import { PAGES_HEADER, publicKeyOf, verifyWacz, waczReadme, writeWacz, type DataPackage } from "../../lib/records/wacz.ts";
import { deriveCapture } from "../../testing/records/derive.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { projectRoot, requireBuild } from "../server/support.ts";
import { realCapture, recordsFixture, type RecordsFixture } from "./fixtures.ts";
import { chromium } from "playwright-core";
import { chromeArgs, findChrome } from "../../lib/chrome.ts";
import { textFileOf } from "../../lib/approval/ledger.ts";
import { CAPTURE_WACZ, MANIFEST, UNKNOWN_PATH } from "../../lib/records/manifest.ts";
import { DRIFT } from "../../testing/demo/records.ts";
import { refuseOutside, serveReplay } from "../../testing/replay-page.ts";

const skip = !available("chromium") && !isCI();
requireBuild();

let scratch: string;
let file: string;
let keyFile: string;
let fingerprint: string;
let tsaCa: string;
let fixture: RecordsFixture;
let real: ReturnType<typeof realCapture>;
let later: ReturnType<typeof realCapture>;
let zip: Map<string, { bytes: Buffer; method: number }>;
let root: string;

async function readZip(path: string) {
  const zipFile = await yauzl.openPromise(path, { autoClose: false });
  const out = new Map<string, { bytes: Buffer; method: number }>();
  for await (const entry of zipFile.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zipFile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.set(entry.fileName, { bytes: Buffer.concat(chunks), method: entry.compressionMethod });
  }
  zipFile.close();
  return out;
}

/** One byte of the real capture's WARC changed, near its end (a response's body). */
const flipWarcByte = (entries: Map<string, Buffer>) => {
  const bytes = entries.get(`archive/${real.manifest.warc}`)!;
  bytes[bytes.length - 40] ^= 1;
};

/** A copy of the WACZ written again entry by entry after `change`; `compress` says which entries are deflated. */
async function alteredCopy(
  name: string,
  change: (entries: Map<string, Buffer>) => void,
  compress = (path: string) => !path.startsWith("archive/"),
) {
  const entries = new Map([...zip].map(([path, { bytes }]) => [path, Buffer.from(bytes)]));
  change(entries);
  const out = new yazl.ZipFile();
  for (const [path, data] of entries) out.addBuffer(data, path, { compress: compress(path) });
  out.end();
  const copy = join(scratch, name);
  await pipeline(out.outputStream, createWriteStream(copy));
  return copy;
}

// Without Vitest's variables, as a person runs it.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
function npm(env: Record<string, string>, ...args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((done) => {
    execFile("npm", ["run", "--silent", ...args], { cwd: projectRoot, env: { ...baseEnv, ...env } }, (error, stdout, stderr) =>
      done({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

beforeAll(async () => {
  if (skip) return;
  scratch = mkdtempSync(join(tmpdir(), "wacz-test-"));
  fixture = await recordsFixture();
  tsaCa = readFileSync(fixture.tsaCaFile, "utf8");
  real = realCapture(fixture, "deployed", join(scratch, "staging"));
  root = join(scratch, "store");
  mkdirSync(root);
  deriveCapture(real.folder, root, { at: new Date("2026-03-14T06:17:00Z"), kind: "scheduled" });
  const store = new FolderStore(root);
  later = realCapture(fixture, "drifted", join(scratch, "staging"));
  await store.write(real.name, real.folder);
  await store.write(later.name, later.folder);
  // A test key, made here: never a key of the firm's.
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
  keyFile = join(scratch, "wacz-key.pem");
  writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }));
  fingerprint = publicKeyOf(privateKey).fingerprint;
  const catalog = new Catalog(store, { cacheFile: cacheFileFor(store, projectRoot), tsaCa, repo: projectRoot });
  const { captures, notes } = selectForExport(await catalog.refresh(), { from: new Date("2026-03-01T00:00:00Z"), to: new Date() });
  file = join(scratch, "records.wacz");
  await writeWacz({
    store,
    captures,
    file,
    key: privateKey,
    timestamp: (data) => requestTimestamp(fixture.tsaUrl, data),
    tsaCa,
    readme: ({ fingerprint: print }) => waczReadme({ captures: captures.length, notes, by: "Zoë Casey", fingerprint: print }),
  });
  zip = await readZip(file);
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(skip)("a WACZ of the records", () => {
  it("is accepted whole: every file listed, the index made again equal, the signature and each capture's records", async () => {
    const checked = await verifyWacz(file);
    expect(checked).toEqual({
      ok: true,
      problems: [],
      captures: 3,
      signed: true,
      fingerprint,
      signedAt: expect.any(String),
      manifests: expect.arrayContaining([real.manifestSha256, later.manifestSha256]),
      // The two real captures gathered from the WACZ stored with each, signed and timestamped as it was made;
      // the derived one (no WACZ of its own) packaged from its files.
      sealedAtCapture: [real, later].map(({ name }) => ({ capture: name, signed: true, signedAt: expect.any(String) })),
    });
    for (const { signedAt } of checked.sealedAtCapture) expect(Date.parse(signedAt!)).toBeLessThanOrEqual(Date.parse(checked.signedAt!));
    // The TSA's time of the signature: made during this run.
    expect(Date.now() - Date.parse(checked.signedAt!)).toBeLessThan(30 * 60_000);
  });

  it("holds each capture's WARC byte for byte, stored, its SHA-256 the manifest's; every other file listed with its size and hash; signed as replayers verify", async () => {
    const warc = `archive/${real.manifest.warc}`;
    expect(zip.get(warc)!.method).toBe(0);
    expect(zip.get(warc)!.bytes.equals(readFileSync(join(real.folder, real.manifest.warc)))).toBe(true);
    expect(sha256Hex(zip.get(warc)!.bytes)).toBe(real.manifest.files.find((f) => f.path === real.manifest.warc)!.sha256);
    const datapackage = JSON.parse(zip.get("datapackage.json")!.bytes.toString("utf8")) as DataPackage;
    expect(datapackage).toMatchObject({ profile: "data-package", wacz_version: "1.1.1" });
    const listed = datapackage.resources.map((r) => r.path).sort();
    expect(listed).toEqual([...zip.keys()].filter((p) => !p.startsWith("datapackage")).sort());
    for (const { path, hash, bytes } of datapackage.resources)
      expect({ path, hash, bytes }).toEqual({
        path,
        hash: `sha256:${sha256Hex(zip.get(path)!.bytes)}`,
        bytes: zip.get(path)!.bytes.length,
      });
    expect(listed).toEqual(
      expect.arrayContaining([
        `records/${real.name}/manifest.json`,
        `records/${real.name}/manifest.json.tsr`,
        "records/tsa-ca.pem",
        "README.txt",
        "indexes/index.cdxj",
      ]),
    );
    expect(listed.filter((p) => p.startsWith(`records/${real.name}/`) && p.endsWith(".pdf")).length).toBe(real.manifest.pages.length);
    const digest = JSON.parse(zip.get("datapackage-digest.json")!.bytes.toString("utf8")) as {
      hash: string;
      signedData: { hash: string; signature: string; publicKey: string };
    };
    expect(digest.hash).toBe(`sha256:${sha256Hex(zip.get("datapackage.json")!.bytes)}`);
    expect(digest.signedData.hash).toBe(digest.hash);
    // As a replayer checks it: WebCrypto's ECDSA P-384 with SHA-256 over the hash string (signatures in IEEE P1363 form).
    const key = await crypto.subtle.importKey(
      "spki",
      Buffer.from(digest.signedData.publicKey, "base64"),
      { name: "ECDSA", namedCurve: "P-384" },
      false,
      ["verify"],
    );
    const verifies = (text: string) =>
      crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        key,
        Buffer.from(digest.signedData.signature, "base64"),
        new TextEncoder().encode(text),
      );
    expect(await verifies(digest.hash)).toBe(true);
    // Another hash (its last digit changed, whatever it was) does not verify.
    expect(await verifies(digest.hash.replace(/.$/, (last) => (last === "0" ? "1" : "0")))).toBe(false);
    expect(zip.get("README.txt")!.bytes.toString("utf8")).toContain(fingerprint);
  });

  it("lists each page of each capture at the time its response was recorded, titled with its approver; the main page the latest landing page", async () => {
    const lines = zip.get("pages/pages.jsonl")!.bytes.toString("utf8").trimEnd().split("\n");
    expect(lines[0]).toBe(PAGES_HEADER);
    const pages = lines.slice(1).map((line) => JSON.parse(line) as { url: string; ts: string; title: string });
    expect(pages).toHaveLength(real.manifest.pages.length * 2 + later.manifest.pages.length);
    const responseDates = async (capture: typeof real) => {
      const dates = new Map<string, string>();
      for await (const record of readWarc(readFileSync(join(capture.folder, capture.manifest.warc))))
        if (record.type === "response") dates.set(record.url, record.date);
      return dates;
    };
    const [first, second] = [await responseDates(real), await responseDates(later)];
    // Each capture's pages at the moments its own WARC recorded them; the derived capture shares the first's WARC.
    const expected = (capture: typeof real, dates: Map<string, string>) =>
      capture.manifest.pages.map((page) => ({
        url: page.url,
        ts: dates.get(page.url),
        title: `${"title" in page ? page.title : page.path}: approved by ${capture.manifest.approvals.find((a) => a.page === page.path)?.approvedBy ?? "no one on record"}`,
      }));
    const listed = pages.map(({ url, ts, title }) => ({ url, ts, title }));
    expect(listed).toEqual(expect.arrayContaining([...expected(real, first), ...expected(later, second)]));
    // One address on two dates: the first capture's time (and the derived one's, sharing its WARC) twice, the later's once.
    expect(listed.filter((line) => first.get(line.url) === line.ts)).toHaveLength(2 * real.manifest.pages.length);
    expect(listed.filter((line) => second.get(line.url) === line.ts)).toHaveLength(later.manifest.pages.length);
    const landing = later.manifest.pages.find((p) => p.path === "/")!;
    expect(Date.parse(second.get(landing.url)!)).toBeGreaterThan(
      Date.parse(first.get(real.manifest.pages.find((p) => p.path === "/")!.url)!),
    );
    const datapackage = JSON.parse(zip.get("datapackage.json")!.bytes.toString("utf8")) as DataPackage;
    expect(datapackage).toMatchObject({ mainPageURL: landing.url, mainPageDate: second.get(landing.url) });
    const index = zip.get("indexes/index.cdxj")!.bytes.toString("utf8").trimEnd().split("\n");
    expect(index).toEqual([...index].sort());
    // Each capture's landing page is in the index (the derived capture's is the first's, indexed once).
    for (const url of [landing.url, real.manifest.pages.find((p) => p.path === "/")!.url])
      expect(index.filter((line) => line.includes(`"url": "${url}"`) || line.includes(`"url":"${url}"`)).length, url).toBeGreaterThan(0);
  });

  it("checks with the README's own OpenSSL commands: the signature's trusted time and a capture's, Verification: OK", async () => {
    const readme = zip.get("README.txt")!.bytes.toString("utf8");
    const commands = readme
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("openssl ts -verify"));
    expect(commands).toHaveLength(2);
    // What the README's unzip and jq steps leave in the folder, taken out here as they take them out.
    const folder = mkdtempSync(join(scratch, "readme-"));
    for (const [path, { bytes }] of zip) {
      if (!path.startsWith("records/")) continue;
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), bytes);
    }
    const { signedData } = JSON.parse(zip.get("datapackage-digest.json")!.bytes.toString("utf8")) as {
      signedData: { signature: string; timeSignature: string };
    };
    writeFileSync(join(folder, "signature.bin"), Buffer.from(signedData.signature, "base64"));
    writeFileSync(join(folder, "signature.tsr"), Buffer.from(signedData.timeSignature, "base64"));
    const runs = commands.map((command) => command.replaceAll("<capture>", real.name));
    for (const command of runs) {
      const answer = spawnSync("sh", ["-c", command], { cwd: folder, encoding: "utf8" });
      expect([command, answer.status, answer.stdout.trim()], answer.stderr).toEqual([command, 0, "Verification: OK"]);
    }
    // The same command over another file's bytes: refused.
    writeFileSync(join(folder, "signature.bin"), Buffer.from("not the signature"));
    expect(spawnSync("sh", ["-c", runs[0]!], { cwd: folder, encoding: "utf8" }).stdout).not.toContain("Verification: OK");
  });

  it("refuses each altered copy with a line naming the file", async () => {
    const warc = `archive/${real.manifest.warc}`;
    const copies = {
      byte: await alteredCopy("byte.wacz", flipWarcByte),
      added: await alteredCopy("added.wacz", (e) => e.set("records/extra.txt", Buffer.from("added later\n"))),
      compressed: await alteredCopy(
        "compressed.wacz",
        () => {},
        () => true,
      ),
      noTs: await alteredCopy("no-ts.wacz", (e) => {
        const lines = e.get("pages/pages.jsonl")!.toString("utf8").split("\n");
        lines[1] = JSON.stringify({ ...(JSON.parse(lines[1]!) as object), ts: undefined });
        e.set("pages/pages.jsonl", Buffer.from(lines.join("\n")));
      }),
      sealed: await alteredCopy("sealed.wacz", (e) => {
        const path = `records/${real.name}/capture-wacz/datapackage.json`;
        const held = JSON.parse(e.get(path)!.toString("utf8")) as DataPackage;
        held.created = new Date().toISOString();
        e.set(path, Buffer.from(`${JSON.stringify(held, null, 2)}\n`));
      }),
      edited: await alteredCopy("edited.wacz", (e) => {
        const datapackage = JSON.parse(e.get("datapackage.json")!.toString("utf8")) as DataPackage;
        datapackage.title = "Something else";
        e.set("datapackage.json", Buffer.from(`${JSON.stringify(datapackage, null, 2)}\n`));
      }),
    };
    const results = Object.fromEntries(
      await Promise.all(Object.entries(copies).map(async ([name, copy]) => [name, await verifyWacz(copy)] as const)),
    );
    for (const result of Object.values(results)) expect(result.ok).toBe(false);
    expect(results.byte!.problems).toContain(`${warc}: its SHA-256 is not the one datapackage.json lists (changed after export)`);
    expect(results.added!.problems).toEqual(["records/extra.txt: in the file but not listed in datapackage.json"]);
    expect(results.compressed!.problems).toEqual(
      [real, later].map(
        (c) => `archive/${c.manifest.warc}: compressed again in the zip; a WARC is stored as it is, for a replayer to read at its offsets`,
      ),
    );
    expect(results.noTs!.problems).toContain("pages/pages.jsonl line 2: no ts (the time of the page's capture)");
    // What the capture held when it was made, changed: its own signed digest no longer covers it.
    expect(results.sealed!.problems).toContain(
      `records/${real.name}/capture-wacz/datapackage.json: changed after it was signed (its hash is not the one in records/${real.name}/capture-wacz/datapackage-digest.json)`,
    );
    expect(results.edited!.problems).toEqual([
      "datapackage.json: changed after it was signed (its hash is not the one in datapackage-digest.json)",
    ]);
  });

  it("without an answer from the TSA, is signed without trusted time and says why; a time signature over other bytes is refused", async () => {
    const store = new FolderStore(root);
    const catalog = new Catalog(store, { cacheFile: cacheFileFor(store, projectRoot), tsaCa, repo: projectRoot });
    const { captures } = selectForExport(await catalog.refresh(), { dates: ["2026-03-14"] });
    const untimed = join(scratch, "untimed.wacz");
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
    const made = await writeWacz({
      store,
      captures,
      file: untimed,
      key: privateKey,
      timestamp: () => requestTimestamp("http://127.0.0.1:9/", Buffer.from("x"), { timeoutMs: 2_000 }),
      readme: () => "",
    });
    expect(made.untimed).toMatch(/could not be reached/);
    expect(await verifyWacz(untimed, { tsaCa })).toMatchObject({ ok: true, signed: true, signedAt: null });
    // The first WACZ's token, put with this one's signature: it vouches for other bytes.
    const first = JSON.parse(zip.get("datapackage-digest.json")!.bytes.toString("utf8")) as { signedData: { timeSignature: string } };
    const other = JSON.parse((await readZip(untimed)).get("datapackage-digest.json")!.bytes.toString("utf8")) as {
      signedData: { signature: string };
    };
    const swapped = await alteredCopy("swapped-time.wacz", (e) => {
      const digest = JSON.parse(e.get("datapackage-digest.json")!.toString("utf8")) as { signedData: { signature: string } };
      digest.signedData.signature = other.signedData.signature;
      e.set(
        "datapackage-digest.json",
        Buffer.from(JSON.stringify({ ...digest, signedData: { ...digest.signedData, timeSignature: first.signedData.timeSignature } })),
      );
    });
    const refused = await verifyWacz(swapped);
    expect(refused.ok).toBe(false);
    expect(refused.problems).toContain("datapackage-digest.json: its signature does not verify over the hash of datapackage.json");
    expect(refused.problems.filter((p) => p.startsWith("datapackage-digest.json: timeSignature: "))).toHaveLength(1);
  });

  it("a capture is stored with its own WACZ, signed and timestamped as it was made; records:verify --store checks it, a changed byte in it is named, and an export then packages that capture again and says why", async () => {
    const name = fixture.names.deployed;
    const own = readFileSync(join(fixture.store, name, CAPTURE_WACZ));
    const alone = await verifyWacz(own, { tsaCa });
    expect(alone).toMatchObject({ ok: true, problems: [], captures: 1, signed: true, manifests: [real.manifestSha256] });
    // Timestamped by the TSA as the capture was made: before the capture was stored, never later.
    expect(Date.parse(alone.signedAt!)).toBeGreaterThanOrEqual(Date.parse(real.manifest.createdAt));
    expect(Date.parse(alone.signedAt!)).toBeLessThanOrEqual(statSync(join(fixture.store, name, MANIFEST)).mtimeMs + 1_000);
    // The store with one byte of the stored WACZ's WARC changed (a copy: the run's store stays as it is).
    const changed = join(scratch, "changed-store");
    cpSync(join(fixture.store, name), join(changed, name), { recursive: true });
    const warc = readFileSync(join(fixture.store, name, real.manifest.warc));
    const at = own.indexOf(warc.subarray(0, 256)) + warc.length - 40;
    expect(at).toBeGreaterThan(256);
    const bytes = Buffer.from(own);
    bytes[at] ^= 1;
    writeFileSync(join(changed, name, CAPTURE_WACZ), bytes);
    // The run's store, as records:verify --store reads it: the WACZ line, signed and timestamped.
    const stored = new FolderStore(fixture.store);
    const files = (await stored.list(name)).get(name)!;
    const intact = await verifyCapture(storeSource(stored, name, files), { tsaCa });
    expect(intact.ok, intact.problems.join("\n")).toBe(true);
    expect(intact.lines.find((l) => l.label === "WACZ")).toMatchObject({
      ok: true,
      text: expect.stringMatching(
        /^capture\.wacz holds this capture .*; signed by the key with SHA-256 fingerprint [0-9a-f]{12}… and timestamped on /,
      ),
    });
    // The changed copy, by the command itself: refused, naming the file inside the WACZ.
    const refused = await npm({ ARCHIVE_TSA_CA: fixture.tsaCaFile, ARCHIVE_STORE: changed }, "records:verify", "--", "--store", name);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain(`✗ WACZ: `);
    expect(refused.output).toContain(`capture.wacz: archive/${real.manifest.warc}: its SHA-256 is not the one datapackage.json lists`);
    // Its WARC, PDFs and manifest are intact: the export packages the capture from them, and says why.
    const store = new FolderStore(changed);
    const catalog = new Catalog(store, { cacheFile: join(scratch, "changed-catalog.json"), tsaCa, repo: projectRoot });
    const { captures } = selectForExport(await catalog.refresh(), {
      dates: [name.slice(0, 4) + "-" + name.slice(4, 6) + "-" + name.slice(6, 8)],
    });
    const out = join(scratch, "repackaged.wacz");
    const made = await writeWacz({ store, captures, file: out, readme: () => "", tsaCa });
    expect(made.gathered).toEqual([]);
    expect(made.repackaged).toEqual([
      `${name}/${CAPTURE_WACZ}: archive/${real.manifest.warc}: its SHA-256 is not the one datapackage.json lists (changed after export)`,
    ]);
    expect(await verifyWacz(out, { tsaCa })).toMatchObject({ ok: true, captures: 1, sealedAtCapture: [] });
  });

  it("npm run records:export -- --format wacz writes one that npm run records:verify accepts, and a changed byte it refuses", async () => {
    const out = join(scratch, "cli.wacz");
    // The export carries the TSA's CA (records/tsa-ca.pem), with which the check then reads the tokens.
    const { tsaCaFile, tsaUrl } = fixture;
    const env = { ARCHIVE_STORE: root, ARCHIVE_TSA_CA: tsaCaFile, ARCHIVE_TSA_URL: tsaUrl, ARCHIVE_WACZ_KEY: keyFile };
    const written = await npm(env, "records:export", "--", "--from", "2026-03-01", "--format", "wacz", "--out", out, "--by", "Zoë Casey");
    expect(written.output).toContain(`records:export: wrote ${out}: 3 capture(s)`);
    expect(written.output).toContain(
      `records:export: gathered as stored at capture time, signed and timestamped then: ${real.name}, ${later.name}`,
    );
    expect(written.status, written.output).toBe(0);
    const changed = await alteredCopy("cli-byte.wacz", flipWarcByte);
    const [checked, refused] = await Promise.all([out, changed].map((wacz) => npm({ ARCHIVE_TSA_CA: "" }, "records:verify", "--", wacz)));
    expect(checked!.output).toContain(
      `records:verify: ${out} is an intact WACZ: 3 capture(s), signed by the key with SHA-256 fingerprint ${fingerprint}, at 20`,
    );
    expect(checked!.output).toMatch(/, at \d{4}-\d\d-\d\dT[\d:.]+Z by the TSA's token/);
    expect(checked!.status, checked!.output).toBe(0);
    expect(refused!.status).toBe(1);
    expect(refused!.output).toContain(`✗ archive/${real.manifest.warc}: its SHA-256 is not the one datapackage.json lists`);
  });
});

describe.skipIf(skip)("the WACZ in ReplayWeb.page, served on loopback from the registry's replaywebpage", () => {
  it("shows each page's approved words from the archive, one address's captures as snapshots by date, and fetches nothing beyond loopback", async () => {
    const lines = zip.get("pages/pages.jsonl")!.bytes.toString("utf8").trim().split("\n").slice(1);
    // Each address's captures by date, earliest first (the two real captures are of one address, decision in testing/demo/records.ts).
    const tsOf = new Map<string, string[]>();
    for (const { url, ts } of lines.map((line) => JSON.parse(line) as { url: string; ts: string })) {
      const times = tsOf.get(url) ?? [];
      tsOf.set(url, [...new Set([...times, ts.replace(/\D/g, "").slice(0, 14)])].sort());
    }
    const landing = real.manifest.pages.find((p) => p.path === "/")!.url;
    expect(later.manifest.pages.find((p) => p.path === "/")!.url).toBe(landing);
    expect(tsOf.get(landing)).toHaveLength(2);
    const host = await serveReplay(file);
    const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
    try {
      const context = await browser.newContext();
      // Whatever the page or the replay's service worker asks of any other host is refused, and recorded.
      const outside = await refuseOutside(context, host.origin);
      const page = await context.newPage();
      /** The words of `url` as ReplayWeb.page draws it from the WACZ at the capture's time. */
      const replayed = async (url: string, words: string, which: "earlier" | "later" = "earlier") => {
        const ts = which === "earlier" ? tsOf.get(url)![0]! : tsOf.get(url)!.at(-1)!;
        await page.goto(host.pageFor(url, ts));
        const frame = () => page.frames().find((f) => f.url().includes(`/${ts}mp_/${url}`));
        const text = () =>
          frame()
            ?.evaluate(() => (document.body?.textContent ?? "").replace(/\s+/g, " "))
            .catch(() => "") ?? "";
        await expect.poll(text, { timeout: 30_000, message: `${url} at ${ts}` }).toContain(words);
        return text();
      };
      // Every page of the deployed capture: its approved text's longest line of words, from the archive.
      for (const { path, url } of real.manifest.pages) {
        const approved = readFileSync(join(projectRoot, textFileOf(path === UNKNOWN_PATH ? "/404" : path)), "utf8");
        const longest = approved
          .split("\n")
          .filter((line) => !line.startsWith("["))
          .reduce((a, b) => (b.length > a.length ? b : a), "");
        await replayed(url, longest.replace(/\s+/g, " "));
      }
      // One address, two snapshots by date: the Privacy Policy's heading as it drifted at the later capture's
      // time, as approved at the earlier one's; and the landing page at each of its two dates.
      const privacy = real.manifest.pages.find((p) => p.path === DRIFT.page)!.url;
      expect(later.manifest.pages.find((p) => p.path === DRIFT.page)!.url).toBe(privacy);
      await replayed(privacy, DRIFT.to, "later");
      expect(await replayed(privacy, DRIFT.from, "earlier")).not.toContain(DRIFT.to);
      await replayed(landing, "The trusted leader in institutional", "later");
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
      await host.close();
    }
  }, 120_000);
});
