/**
 * The examiner's export (lib/records/export.ts, `npm run records:export`) and its check (`npm run
 * records:verify -- export.zip`) over a folder store: the run's real capture of the built site in
 * Chromium (tests/records/fixtures.ts), timestamped by the demo TSA on loopback, and captures derived
 * from it on other days (1, 14 and 20
 * March, 2 April 2026, and an unfinished one on 4 April). Zips altered by rewriting them entry by entry.
 */
import { execFile, execFileSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import yazl from "yazl";
import { sha256Hex } from "../../lib/hash.ts";
import { LEDGER_FILE, parseLedger } from "../../lib/approval/ledger.ts";
import { Catalog, cacheFileFor, type CaptureEntry } from "../../lib/records/catalog.ts";
import { deriveCapture } from "../../testing/records/derive.ts";
import { selectForExport, verifyExport, writeExport, type ExportResult } from "../../lib/records/export.ts";
import { CAPTURE_WACZ, MANIFEST, TIMESTAMP_TOKEN } from "../../lib/records/manifest.ts";
import { FolderStore } from "../../lib/records/store.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { projectRoot, requireBuild } from "../server/support.ts";
import { realCapture, recordsFixture, type RecordsFixture } from "./fixtures.ts";

const skip = !available("chromium") && !isCI();
requireBuild();

const DAYS = { first: "20260301T061700Z", march14: "20260314T061700Z", march20: "20260320T120000Z", april2: "20260402T093000Z" };
const ledger = parseLedger(readFileSync(join(projectRoot, LEDGER_FILE), "utf8"));
const OLD_PRIVACY = ledger.pages["/privacy-policy"]!.history[0]!.sha256;

let scratch: string;
let fixture: RecordsFixture;
let tsaCa: string;
let real: ReturnType<typeof realCapture>;
let store: FolderStore;
let entries: CaptureEntry[];
let exported: ExportResult;
let zip: Map<string, Buffer>;

// Without Vitest's variables: a build started from here would bundle React's development build.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
/** The real command through npm; several run at once. */
function npm(env: Record<string, string>, ...args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((done) => {
    execFile("npm", ["run", "--silent", ...args], { cwd: projectRoot, env: { ...baseEnv, ...env } }, (error, stdout, stderr) =>
      done({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}
const verify = (file: string, env: Record<string, string> = {}) => npm({ ARCHIVE_TSA_CA: "", ...env }, "records:verify", "--", file);

async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zipFile = await yauzl.openPromise(file, { autoClose: false });
  const out = new Map<string, Buffer>();
  for await (const entry of zipFile.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zipFile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  zipFile.close();
  return out;
}

/** A copy of the export, rewritten entry by entry after `change`. */
async function alteredCopy(name: string, change: (entries: Map<string, Buffer>) => void): Promise<string> {
  const entries = new Map([...zip].map(([path, data]) => [path, Buffer.from(data)]));
  change(entries);
  const out = new yazl.ZipFile();
  for (const [path, data] of entries) out.addBuffer(data, path);
  out.end();
  const file = join(scratch, name);
  await pipeline(out.outputStream, createWriteStream(file));
  return file;
}

/** RFC 4180: fields quoted where needed (quotes doubled), each row ending in CRLF; nothing left over. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [[]];
  let read = 0;
  for (const [match, field, end] of text.matchAll(/("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n)/gy)) {
    read += match.length;
    rows.at(-1)!.push(field!.startsWith('"') ? field!.slice(1, -1).replace(/""/g, '"') : field!);
    if (end === "\r\n") rows.push([]);
  }
  expect(read).toBe(text.length);
  return rows.slice(0, -1);
}

beforeAll(async () => {
  if (skip) return;
  scratch = mkdtempSync(join(tmpdir(), "export-test-"));
  // The run's real capture of the built site, stamped by the demo TSA (tests/records/fixtures.ts), copied here.
  fixture = await recordsFixture();
  tsaCa = readFileSync(fixture.tsaCaFile, "utf8");
  real = realCapture(fixture, "deployed", join(scratch, "staging"));
  const root = join(scratch, "store");
  mkdirSync(root);
  deriveCapture(real.folder, root, { at: new Date("2026-03-01T06:17:00Z"), kind: "scheduled" });
  deriveCapture(real.folder, root, {
    at: new Date("2026-03-14T06:17:00Z"),
    edit(manifest) {
      // The landing page approved in the studio (a principal with a CRD); the Privacy Policy live with text other than the approved.
      const landing = manifest.approvals.find((a) => a.page === "/")!;
      landing.principal = { name: "Sam Principal", crd: "1000002", email: "sam.principal@example.com", registration: "Series 24" };
      landing.editedBy = [{ name: "Alex Editor", email: "alex.editor@example.com" }];
      manifest.pages.find((p) => p.path === "/privacy-policy")!.approvedSha256 = OLD_PRIVACY;
      manifest.approvals.find((a) => a.page === "/privacy-policy")!.sha256 = OLD_PRIVACY;
    },
  });
  deriveCapture(real.folder, root, { at: new Date("2026-03-20T12:00:00Z"), kind: "scheduled" });
  deriveCapture(real.folder, root, { at: new Date("2026-04-02T09:30:00Z") });
  rmSync(join(deriveCapture(real.folder, root, { at: new Date("2026-04-04T08:00:00Z") }), MANIFEST));
  store = new FolderStore(root);
  await store.write(real.name, real.folder);
  const catalog = new Catalog(store, { cacheFile: cacheFileFor(store, projectRoot), tsaCa, repo: projectRoot });
  entries = await catalog.refresh();
  const today = `${real.name.slice(0, 4)}-${real.name.slice(4, 6)}-${real.name.slice(6, 8)}`;
  const selection = { dates: ["2026-03-14", today] };
  const { captures, notes } = selectForExport(entries, selection);
  const file = join(scratch, "export.zip");
  exported = await writeExport({ store, selection, captures, notes, exportedBy: { name: "Zoë Casey" }, tsaCa, file });
  zip = await readZip(file);
}, 180_000);

afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const names = (selected: ReturnType<typeof selectForExport>) => selected.captures.map((c) => c.entry.name);

describe.skipIf(skip)("captures derived for tests", () => {
  it("verify like the real one, at their own times, sharing its files, without a token", () => {
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect(entries.filter((e) => e.complete).map((e) => e.name)).toEqual([...Object.values(DAYS), real.name]);
    expect(byName.get("20260404T080000Z")?.complete).toBe(false);
    for (const entry of entries.filter((e) => e.complete)) expect(entry.problems, entry.name).toEqual([]);
    expect(byName.get(DAYS.first)).toMatchObject({ kind: "scheduled", timeSource: "clock", time: "2026-03-01T06:17:00.000Z" });
    expect(byName.get(real.name)).toMatchObject({ kind: "deploy", timeSource: "tsa" });
    expect(statSync(join(store.root, DAYS.first, real.manifest.pages[0]!.pdf)).nlink).toBeGreaterThan(1);
    expect(existsSync(join(store.root, DAYS.first, TIMESTAMP_TOKEN))).toBe(false);
  });
});

describe.skipIf(skip)("selectForExport", () => {
  it("takes the capture in force at the start of a range and every one made within it", () => {
    const selected = selectForExport(entries, { from: new Date("2026-03-14T00:00:00Z"), to: new Date("2026-03-20T23:59:59.999Z") });
    expect(names(selected)).toEqual([DAYS.first, DAYS.march14, DAYS.march20]);
    expect(selected.captures.map((c) => [c.inForceFrom, c.inForceUntil])).toEqual([
      ["2026-03-01T06:17:00.000Z", "2026-03-14T06:17:00.000Z"],
      ["2026-03-14T06:17:00.000Z", "2026-03-20T12:00:00.000Z"],
      ["2026-03-20T12:00:00.000Z", "2026-04-02T09:30:00.000Z"],
    ]);
    expect(selected.notes).toEqual([]);
    expect(names(selectForExport(entries, { from: new Date("2026-03-15T00:00:00Z"), to: new Date("2026-03-19T00:00:00Z") }))).toEqual([
      DAYS.march14,
    ]);
  });

  it("takes, for each day, the captures in force on it (an unfinished capture never), and names the first for a day before it", () => {
    const selected = selectForExport(entries, { dates: ["2026-02-20", "2026-03-14", "2026-04-04"] });
    expect(names(selected)).toEqual([DAYS.first, DAYS.march14, DAYS.april2]);
    expect(selected.captures[2]!.inForceUntil).toBe(entries.find((e) => e.name === real.name)!.time);
    expect(selected.notes).toEqual([
      "The store has no capture on or before 20 February 2026: the first capture is from 1 March 2026, 06:17 UTC.",
    ]);
    const early = selectForExport(entries, { from: new Date("2026-02-25T00:00:00Z"), to: new Date("2026-03-02T00:00:00Z") });
    expect(early.notes).toEqual(["Nothing is recorded from 25 February 2026, 00:00 UTC until the first capture, 1 March 2026, 06:17 UTC."]);
    expect(selectForExport([], { dates: ["2026-03-14"] }).notes).toEqual([
      "The store holds no complete capture, so there is nothing to export.",
    ]);
  });
});

describe.skipIf(skip)("writeExport", () => {
  it("writes one zip: its index files, and every capture exactly as stored with its approvals", () => {
    const captures = [DAYS.first, DAYS.march14, DAYS.april2, real.name];
    const expected = ["README.txt", "SHA256SUMS", "export.json", "index.csv", "index.html", "tsa-ca.pem"];
    for (const name of captures) {
      const stored = [MANIFEST, "manifest.json.sha256", ...real.manifest.files.map((f) => f.path)];
      // The real capture's WACZ, stored with it, goes with it as every stored file does.
      if (name === real.name) stored.push(TIMESTAMP_TOKEN, CAPTURE_WACZ);
      for (const path of stored) {
        expected.push(`captures/${name}/${path}`);
        expect(zip.get(`captures/${name}/${path}`)!.equals(readFileSync(join(store.root, name, path))), path).toBe(true);
      }
      expected.push(`captures/${name}/approvals.json`);
    }
    expect([...zip.keys()].sort()).toEqual(expected.sort());
    expect(exported).toMatchObject({ captures: 4, files: expected.length, sha256: sha256Hex(readFileSync(exported.file)) });

    const index = JSON.parse(zip.get("export.json")!.toString("utf8"));
    expect(index).toMatchObject({ format: "records-export/1", exportedBy: { name: "Zoë Casey" }, tsaCa: "tsa-ca.pem" });
    expect(index.captures.map((c: { name: string }) => c.name)).toEqual(captures);
    expect(index.captures[3]).toMatchObject({
      timeSource: "tsa",
      kind: "deploy",
      manifestSha256: real.manifestSha256,
      verification: { ok: true },
    });
    const listed = index.files.map((f: { path: string }) => f.path).sort();
    expect(listed).toEqual(expected.filter((p) => p !== "export.json").sort());
    for (const f of index.files) expect(f).toEqual({ path: f.path, bytes: zip.get(f.path)!.length, sha256: sha256Hex(zip.get(f.path)!) });

    const approvals = JSON.parse(zip.get(`captures/${DAYS.march14}/approvals.json`)!.toString("utf8")).approvals;
    expect(approvals.find((a: { page: string }) => a.page === "/")).toMatchObject({
      name: "Sam Principal",
      crd: "1000002",
      editors: [{ name: "Alex Editor" }],
    });
    expect(approvals.find((a: { page: string }) => a.page === "/privacy-policy")).toMatchObject({
      sha256: OLD_PRIVACY,
      liveTextApproved: false,
    });
  });

  it("writes index.csv with a row per page of each capture: approver, CRD where the record has one, approval time, text hash, commit", () => {
    const [header, ...rows] = parseCsv(zip.get("index.csv")!.toString("utf8"));
    const at = (name: string) => header!.indexOf(name);
    const columns = "In force from,In force until,Capture,Page,Page address,Approved by,CRD,Approved on,Text SHA-256,PDF";
    for (const column of columns.split(",")) expect(at(column), column).toBeGreaterThanOrEqual(0);
    expect(rows).toHaveLength(4 * real.manifest.pages.length);
    const row = (capture: string, page: string) => rows.find((r) => r[at("Capture")] === capture && r[at("Page")] === page)!;
    const privacy = ledger.pages["/privacy-policy"]!;
    expect(row(DAYS.first, "Privacy Policy")).toEqual(
      expect.arrayContaining([
        "1 March 2026, 06:17 UTC",
        "14 March 2026, 06:17 UTC",
        privacy.approvedBy,
        privacy.sha256,
        "https://www.example.com/privacy-policy",
      ]),
    );
    expect(row(DAYS.first, "Privacy Policy")[at("CRD")]).toBe("");
    expect(row(DAYS.first, "Privacy Policy")[at("PDF")]).toBe(`captures/${DAYS.first}/pdf/privacy-policy.pdf`);
    expect(row(DAYS.march14, "Landing page").slice(at("Approved by"), at("CRD") + 1)).toEqual(["Sam Principal, Series 24", "1000002"]);
    expect(row(DAYS.march14, "Privacy Policy")[at("Live text is the approved text")]).toBe("no");
    // Where each page sent the visitor, as its approved text names it (decision 0043).
    expect(row(DAYS.first, "Risk Disclosures")[at("Links (name: address)")]).toContain("FINRA: https://www.finra.org; ");
    expect(row(DAYS.first, "Landing page")[at("Links (name: address)")]).toContain("island link frameUrl: https://forms.example.net/");
    // Each page's review on the day of record (issue 54): the legal pages were overdue, counted from their "Last updated".
    const risk = row(DAYS.first, "Risk Disclosures");
    expect(risk[at("Last reviewed")]).toBe("15 January 2025");
    expect(risk[at("Reviewed by")]).toBe('no review recorded (counted from its "Last updated")');
    expect(risk[at("Review due")]).toBe("15 January 2026");
    expect(risk[at("Review overdue at the time of record")]).toBe("yes");
    expect(row(DAYS.first, "Business Continuity Plan Summary")[at("Review overdue at the time of record")]).toBe("no");
    // When the version each page showed was in use, over the whole store (2210(b)(4)(A)): every capture here shows the same text.
    expect(risk[at("This version first used")]).toBe("1 March 2026, 06:17 UTC");
    expect(risk[at("This version last used")]).toBe("in use at the latest capture");
    // The commit the site was built from, on every row (issue 49).
    expect(rows.map((r) => r[at("Commit")])).toEqual(rows.map(() => real.manifest.commit));
  });

  it("writes index.html in plain words: pages as people name them, dates written out, hashes only in the technical details", () => {
    const html = zip.get("index.html")!.toString("utf8");
    const [plain, technical] = html.split("<h2>Technical details</h2>");
    expect(plain).toContain("In force from 14 March 2026, 06:17 UTC until 20 March 2026, 12:00 UTC");
    expect(plain).toContain("<td>Privacy Policy</td>");
    expect(plain).toContain(`href="captures/${DAYS.march14}/pdf/privacy-policy.pdf"`);
    expect(plain).toContain("the page did not say the approved text");
    expect(plain).toContain(
      'Last reviewed 15 January 2025, no review recorded (counted from its &quot;Last updated&quot;); due 15 January 2026. <span class="bad">Overdue for review at the time of record.</span>',
    );
    expect(plain).toContain("by the Time Stamp Authority");
    expect(plain).not.toMatch(/<script|[0-9a-f]{40}|\d{4}-\d\d-\d\dT/);
    expect(technical).toContain(real.manifestSha256);
    expect(zip.get("README.txt")!.toString("utf8")).toContain(`npm run records:verify -- <this zip>`);
  });

  it("gives the README's openssl command that verifies a capture's token offline", () => {
    const folder = join(scratch, "unzipped");
    for (const [path, data] of zip) {
      mkdirSync(join(folder, path, ".."), { recursive: true });
      writeFileSync(join(folder, path), data);
    }
    const command = /openssl ts -verify .*/.exec(zip.get("README.txt")!.toString("utf8"))![0];
    expect(command).toContain(`captures/${real.name}/manifest.json.tsr`);
    expect(execFileSync("sh", ["-c", `${command} 2>&1`], { cwd: folder, encoding: "utf8" })).toContain("Verification: OK");
  });
});

describe.skipIf(skip)("npm run records:verify on an export", () => {
  it("passes the export, checking tokens against its own CA, or the one configured, and says which", async () => {
    const [own, configured] = await Promise.all([verify(exported.file), verify(exported.file, { ARCHIVE_TSA_CA: fixture.tsaCaFile })]);
    expect(own.status, own.output).toBe(0);
    expect(own.output).toContain("is an intact export");
    expect(own.output).toContain("the export's own tsa-ca.pem");
    expect(configured.status, configured.output).toBe(0);
    expect(configured.output).toContain("the TSA CA configured here");
  });

  it.concurrent.each([
    ["one byte of a PDF changed", "altered", (e: Map<string, Buffer>, pdf: string) => void (e.get(pdf)![1000]! ^= 1)],
    ["a PDF removed", "missing (listed in export.json)", (e: Map<string, Buffer>, pdf: string) => void e.delete(pdf)],
    ["a file added", "added", (e: Map<string, Buffer>, pdf: string) => void e.set(`${pdf}.extra`, Buffer.from("more"))],
  ])("fails on %s, naming the file", async (what, words, change) => {
    const pdf = `captures/${DAYS.march14}/pdf/privacy-policy.pdf`;
    const file = await alteredCopy(`${what.replace(/\W+/g, "-")}.zip`, (e) => change(e, pdf));
    const result = await verify(file);
    expect(result.status, result.output).toBe(1);
    expect(result.output).toContain(`${what === "a file added" ? `${pdf}.extra` : pdf}: ${words}`);
    expect(result.output).toContain("is NOT an intact export");
  });

  it("fails on a timestamp token taken out with export.json's hashes made to match, naming the token", async () => {
    const tsr = `captures/${real.name}/${TIMESTAMP_TOKEN}`;
    const file = await alteredCopy("no-token.zip", (e) => {
      e.delete(tsr);
      const index = JSON.parse(e.get("export.json")!.toString("utf8"));
      index.files = index.files.filter((f: { path: string }) => f.path !== tsr && f.path !== "SHA256SUMS");
      e.delete("SHA256SUMS");
      e.set("export.json", Buffer.from(JSON.stringify(index)));
    });
    const result = await verifyExport(file);
    expect(result.lines.map((l) => [l.label, l.ok])).toContainEqual(["Files", true]);
    expect(result.problems).toEqual([
      // The WACZ stored with the capture holds the token: it was there when the capture was made.
      `captures/${real.name}/${CAPTURE_WACZ}: records/${real.name}/${TIMESTAMP_TOKEN} is in it, but the capture has no such file`,
      `${tsr}: missing, though export.json says a Time Stamp Authority gave this capture's time`,
    ]);
  });

  it("refuses, in one sentence, a zip without export.json and a file that is not a zip", async () => {
    const bare = await alteredCopy("bare.zip", (e) => e.delete("export.json"));
    const notes = join(scratch, "notes.zip");
    writeFileSync(notes, "not a zip at all\n");
    const [result, notZip] = await Promise.all([verify(bare), verify(notes)]);
    expect(result.status).toBe(1);
    expect(result.output).toContain(`${bare} is not a records export: it has no export.json.`);
    expect(notZip.status).toBe(1);
    expect(notZip.output).toContain(`${notes} is not a records export: it cannot be read as a zip file`);
  });
});

describe.skipIf(skip)("npm run records:export", () => {
  const exportCli = (...args: string[]) =>
    npm({ ARCHIVE_STORE: store.root, ARCHIVE_TSA_CA: fixture.tsaCaFile }, "records:export", "--", ...args);

  it("writes a zip of a range that records:verify accepts", async () => {
    const file = join(scratch, "cli.zip");
    const result = await exportCli("--from", "2026-03-14", "--to", "2026-03-20", "--out", file, "--by", "Zoë Casey");
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain("3 capture(s)");
    expect(result.output).toContain(`npm run records:verify -- ${file}`);
    const check = await verify(file);
    expect(check.status, check.output).toBe(0);
  });

  it("says so when the range has nothing, and refuses a date that is not one", async () => {
    const file = join(scratch, "none.zip");
    const [none, bad] = await Promise.all([
      exportCli("--from", "2026-01-01", "--to", "2026-02-01", "--out", file),
      exportCli("--from", "2026-02-30", "--out", file),
    ]);
    expect(none.status).toBe(1);
    expect(none.output).toContain("the first capture is from 1 March 2026, 06:17 UTC");
    expect(existsSync(file)).toBe(false);
    expect(bad.status).toBe(2);
    expect(bad.output).toContain(
      '--from must be a date (2026-03-14) or a date and time with its zone (2026-03-14T12:00:00Z), not "2026-02-30".',
    );
  });
});
