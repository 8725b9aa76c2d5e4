/**
 * `npm run records:capture` on the built site and `npm run records:verify` on what it wrote (and on copies
 * with one byte changed). The archive serves dist/ with our server and captures it in Chromium:
 * without Chromium the file is skipped locally (one line names the apt command); with CI=true it fails.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "parse5";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARCParser } from "warcio";
import { chromium } from "@playwright/test";
import { visit } from "../../lib/records/capture.ts";
import { extractPageText, pageTextHash } from "../../lib/approval/text.ts";
import {
  CAPTURE_WACZ,
  decodeBody,
  MANIFEST,
  MANIFEST_SHA256,
  manifestSchema,
  UNKNOWN_PATH,
  type Manifest,
} from "../../lib/records/manifest.ts";
import { sha256Hex } from "../../lib/hash.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { LEDGER_FILE, parseLedger } from "../../lib/approval/ledger.ts";
import { POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";
import { chromeArgs, findTestChrome } from "../../lib/chrome.ts";
import { builtPages } from "../../lib/approval/files.ts";
import { dist, projectRoot, rawRequest, requireBuild, startServer } from "../server/support.ts";

const skip = !available("chromium") && !isCI();

requireBuild();

let scratch: string;
let folder: string;
let manifest: Manifest;
let manifestSha256: string;

interface RawRecord {
  type: string;
  url: string;
  /** The record's whole block: for request and response records, the HTTP message as sent. */
  block: Buffer;
}

async function rawRecords(file: string): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  for await (const record of new WARCParser(createReadStream(file), { parseHttp: false }))
    records.push({ type: record.warcType ?? "", url: record.warcTargetURI ?? "", block: Buffer.from(await record.readFully(false)) });
  return records;
}

/** Splits an HTTP message into its header lines and body. */
function message(block: Buffer) {
  const end = block.indexOf("\r\n\r\n");
  return { lines: block.subarray(0, end).toString("latin1").split("\r\n"), body: block.subarray(end + 4) };
}

// Without Vitest's NODE_ENV=test: a build started from here (dist/ stale) would otherwise bundle React's development build.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
const npm = (...args: string[]) => spawnSync("npm", ["run", "--silent", ...args], { cwd: projectRoot, encoding: "utf8", env });

function verify(target: string, ...extra: string[]) {
  const result = npm("records:verify", "--", target, ...extra);
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** A copy of the archive to damage. */
function copy(): string {
  const target = mkdtempSync(join(scratch, "copy-"));
  cpSync(folder, target, { recursive: true });
  return target;
}

function flipByte(file: string, at = 0.5) {
  const bytes = readFileSync(file);
  bytes[Math.floor(bytes.length * at)]! ^= 0x01;
  writeFileSync(file, bytes);
}

beforeAll(() => {
  if (skip) return;
  scratch = mkdtempSync(join(tmpdir(), "archive-test-"));
  const result = npm("records:capture", "--", "--out", join(scratch, "archive"));
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  const [name, ...others] = readdirSync(join(scratch, "archive"));
  expect(others).toEqual([]);
  folder = join(scratch, "archive", name!);
  manifest = manifestSchema.parse(JSON.parse(readFileSync(join(folder, MANIFEST), "utf8")));
  manifestSha256 = /manifest\.json sha256 ([0-9a-f]{64})/.exec(result.stdout)?.[1] ?? "";
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(skip)("npm run records:capture", () => {
  it("writes one folder named by its UTC time", () => {
    expect(folder.split("/").pop()).toMatch(/^\d{8}T\d{6}Z$/);
    expect(
      new Date(manifest.createdAt)
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d{3}Z$/, "Z"),
    ).toBe(folder.split("/").pop());
  });

  it("records the commit, the time, every page with its status and hashes, and the approvals in force", () => {
    const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: projectRoot, encoding: "utf8" }).stdout.trim();
    expect(manifest.commit).toBe(head);
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(10 * 60_000);
    const pages = builtPages(dist);
    expect(manifest.pages.map((p) => p.path)).toEqual(pages.map((p) => p.page));
    const ledger = parseLedger(readFileSync(join(projectRoot, LEDGER_FILE), "utf8"));
    for (const page of manifest.pages) {
      const built = pages.find((p) => p.page === page.path)!;
      expect(page.status, page.path).toBe(page.path === "/404" ? 404 : 200);
      expect(page.htmlSha256, page.path).toBe(sha256Hex(readFileSync(built.file)));
      expect(page.textSha256, page.path).toBe(ledger.pages[page.path]!.sha256);
    }
    expect(manifest.approvals).toEqual(
      manifest.pages.map(({ path }) => {
        const { sha256, approvedBy, approvedOn } = ledger.pages[path]!;
        return { page: path, sha256, approvedBy, approvedOn };
      }),
    );
  });

  it("records the rule of the text and each page's links, as the approval covers them", () => {
    expect(manifest.format === "site-archive/2" && manifest.textRule).toBe("page-text/2");
    const linksOf = (path: string) => {
      const page = manifest.pages.find((p) => p.path === path) as { links?: Array<{ kind: string; name: string; target: string }> };
      return page.links ?? [];
    };
    expect(linksOf("/risk-disclosures")).toContainEqual({ kind: "link", name: "FINRA", target: "https://www.finra.org" });
    expect(
      linksOf("/")
        .filter((l) => l.kind === "island link")
        .map((l) => l.name),
    ).toEqual(["frameUrl", "scriptUrl"]);
  });

  it("lists every other file of the folder with its hash, and writes the manifest's own hash beside it", () => {
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(folder.length + 1))
      .sort();
    // And the capture's WACZ, written after the manifest it holds (unsigned here: no ARCHIVE_WACZ_KEY).
    expect(files).toEqual([MANIFEST, MANIFEST_SHA256, CAPTURE_WACZ, ...manifest.files.map((f) => f.path)].sort());
    for (const file of manifest.files) expect(sha256Hex(readFileSync(join(folder, file.path))), file.path).toBe(file.sha256);
    expect(files.filter((f) => /\.warc(\.gz)?$/.test(f))).toEqual([manifest.warc]);
    expect(files.filter((f) => f.endsWith(".pdf"))).toHaveLength(manifest.pages.length);
    expect(readFileSync(join(folder, MANIFEST_SHA256), "utf8")).toBe(`${sha256Hex(readFileSync(join(folder, MANIFEST)))}  ${MANIFEST}\n`);
    expect(manifestSha256).toBe(sha256Hex(readFileSync(join(folder, MANIFEST))));
  });

  it("holds a request and a response for every page, every asset the pages load, and the 404 page of an unknown path", async () => {
    const records = await rawRecords(join(folder, manifest.warc));
    expect(records[0]!.type).toBe("warcinfo");
    const responses = new Map(records.filter((r) => r.type === "response").map((r) => [r.url, r]));
    const requests = new Set(records.filter((r) => r.type === "request").map((r) => r.url));
    expect([...requests].sort()).toEqual([...responses.keys()].sort());
    for (const url of responses.keys()) expect(url.startsWith(manifest.origin), url).toBe(true);
    expect(manifest.pages.find((p) => p.path === "/404")!.url).toBe(`${manifest.origin}${UNKNOWN_PATH}`);
    for (const page of manifest.pages) {
      const { lines, body } = message(responses.get(page.url)!.block);
      expect(lines[0], page.url).toBe(`HTTP/1.1 ${page.status} ${page.status === 404 ? "Not Found" : "OK"}`);
      const encoding = lines
        .find((l) => /^content-encoding:/i.test(l))
        ?.split(":")[1]
        ?.trim();
      const html = decodeBody(body, encoding).toString("utf8");
      expect(sha256Hex(html)).toBe(page.htmlSha256);
      // Every script and island module the page names was loaded and recorded.
      const named = [...html.matchAll(/(?:src|component-url|renderer-url)="(\/[^"]+\.js)"/g)].map((m) => `${manifest.origin}${m[1]}`);
      // The landing page has islands; the legal pages and the 404 page ship no JavaScript at all.
      if (page.path === "/") expect(named.length, page.url).toBeGreaterThan(0);
      for (const url of named) expect(responses.has(url), `${page.path} loads ${url}`).toBe(true);
    }
  });

  it("stores each answer exactly as the server sends it: status line, headers and encoded body", async () => {
    const records = await rawRecords(join(folder, manifest.warc));
    const server = await startServer();
    try {
      const page = records.find((r) => r.type === "response" && r.url === `${manifest.origin}/`)!;
      const asset = records.find(
        (r) => r.type === "response" && /\/_astro\/.*\.js$/.test(r.url) && /content-encoding: br/i.test(r.block.toString("latin1")),
      )!;
      for (const response of [page, asset]) {
        const request = records.find((r) => r.type === "request" && r.url === response.url)!;
        expect(
          message(request.block).lines.some((l) => /^user-agent:.*Chrome/i.test(l)),
          "recorded from the browser",
        ).toBe(true);
        // The recorded request, sent again byte for byte (on a connection that closes after the answer).
        const again = await rawRequest(
          server.port,
          Buffer.from(request.block.toString("latin1").replace(/^connection: keep-alive\r$/im, "Connection: close\r"), "latin1"),
        );
        // Date and the connection's own headers belong to the moment and the socket, not to the answer.
        const comparable = (block: Buffer) => {
          const { lines, body } = message(block);
          return { lines: lines.filter((l) => !/^(date|connection|keep-alive):/i.test(l)), body };
        };
        expect(comparable(response.block), response.url).toEqual(comparable(again.raw));
      }
    } finally {
      await server.close();
    }
  });

  it("prints one PDF per page with selectable text, the cookie banner closed", async () => {
    for (const page of manifest.pages) {
      const pdfBytes = readFileSync(join(folder, page.pdf));
      expect(pdfBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdfBytes)), { mergePages: true });
      const html = readFileSync(builtPages(dist).find((p) => p.page === page.path)!.file, "utf8");
      // The page's first heading, as the HTML has it, is text in the PDF.
      const h1 =
        /<h1\b[^>]*>([\s\S]*?)<\/h1>/
          .exec(html)?.[1]
          ?.replace(/<[^>]+>/g, "")
          .trim() ?? "";
      expect(h1, page.path).not.toBe("");
      expect(text.replace(/\s+/g, " "), page.path).toContain(h1.replace(/\s+/g, " "));
      // The banner's own sentence (read from the page's HTML) is not printed.
      const banner = bannerText(html);
      expect(banner.length, page.path).toBeGreaterThan(20);
      expect(text.replace(/\s+/g, " "), page.path).not.toContain(banner.slice(0, 40));
    }
  });
});

describe.skipIf(skip)("the page as the archive prints it", () => {
  it("has the cookie banner answered (it stays away on reload) and is printed before the popup's time", async () => {
    const server = await startServer();
    const browser = await chromium.launch({ executablePath: findTestChrome(), args: chromeArgs });
    try {
      const page = await browser.newPage();
      await visit(page, `${server.origin}/`);
      const banner = page.getByRole("region", { name: "Cookie consent" });
      expect(await banner.isVisible()).toBe(false);
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(await page.evaluate(() => performance.now())).toBeLessThan(POPUP_SHOW_AT_MS);
      // Answered, not merely hidden: a returning visitor is not asked again.
      await page.reload();
      await page.clock.runFor(1500);
      expect(await banner.isVisible()).toBe(false);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

/** The first paragraph of the cookie banner (the region labelled "Cookie consent"), from the page's HTML. */
function bannerText(html: string): string {
  type Node = { tagName?: string; value?: string; attrs?: Array<{ name: string; value: string }>; childNodes?: Node[] };
  const text = (node: Node): string => node.value ?? (node.childNodes ?? []).map(text).join("");
  const find = (node: Node, test: (n: Node) => boolean): Node | undefined =>
    test(node) ? node : (node.childNodes ?? []).map((c) => find(c, test)).find(Boolean);
  const region = find(parse(html) as Node, (n) => (n.attrs ?? []).some((a) => a.name === "aria-label" && a.value === "Cookie consent"));
  const paragraph = region && find(region, (n) => n.tagName === "p");
  return paragraph ? text(paragraph).replace(/\s+/g, " ").trim() : "";
}

describe.skipIf(skip)("npm run records:verify", () => {
  it("passes the archive as written, with the manifest hash recorded at archive time", () => {
    const result = verify(folder, "--manifest-sha256", manifestSha256);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain("is intact");
    // Its WACZ checked against its own files; unsigned, as no ARCHIVE_WACZ_KEY was set.
    expect(result.output).toContain(
      "✓ WACZ: capture.wacz holds this capture for a replayer (its WARC, index, pages and records), written as it was made; not signed",
    );
  });

  it.each([
    ["the WARC", () => manifest.warc],
    ["a PDF", () => manifest.pages[0]!.pdf],
    ["the manifest", () => MANIFEST],
  ])("fails on one byte changed in %s, naming the file", (_, file) => {
    const target = copy();
    flipByte(join(target, file()));
    const result = verify(target);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(`${file()}:`);
    expect(result.output).toContain("NOT intact");
  });

  it("checks a capture's text under the rule it was made with: rule 1 captures keep verifying, a wrong rule is named", () => {
    /** A copy of the capture whose manifest says `rule` and holds each page's text hash under `hashRule`. */
    const capturedUnder = (rule: "page-text/1" | "page-text/2" | undefined, hashRule: "page-text/1" | "page-text/2") => {
      const target = copy();
      const rewritten = JSON.parse(readFileSync(join(target, MANIFEST), "utf8")) as Record<string, unknown> & {
        pages: Array<Record<string, unknown>>;
      };
      if (rule) rewritten.textRule = rule;
      else delete rewritten.textRule;
      for (const page of rewritten.pages) {
        delete page.links;
        const built = builtPages(dist).find((b) => b.page === page.path)!;
        page.textSha256 = pageTextHash(extractPageText(readFileSync(built.file, "utf8"), hashRule));
        page.approvedSha256 = page.textSha256;
      }
      for (const approval of rewritten.approvals as Array<{ page: string; sha256: string }>)
        approval.sha256 = rewritten.pages.find((p) => p.path === approval.page)!.textSha256 as string;
      const json = `${JSON.stringify(rewritten, null, 2)}\n`;
      writeFileSync(join(target, MANIFEST), json);
      writeFileSync(join(target, MANIFEST_SHA256), `${sha256Hex(json)}  ${MANIFEST}\n`);
      // Captures of those days were stored without a WACZ (this one's holds the manifest as it was written).
      rmSync(join(target, CAPTURE_WACZ));
      return target;
    };
    // A capture made before link targets were approved says no rule: its hashes are of rule 1's text.
    const old = verify(capturedUnder(undefined, "page-text/1"));
    expect(old.status, old.output).toBe(0);
    // The same hashes under a manifest that claims rule 2 do not verify, page by page.
    const wrong = verify(capturedUnder("page-text/2", "page-text/1"));
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toContain(`the text of ${manifest.origin}/risk-disclosures does not hash to the manifest's textSha256`);
  });

  it("fails on a record changed inside the WARC even when the file's hash is made to match, naming the record", async () => {
    const target = copy();
    const warc = join(target, manifest.warc);
    // Rewrite one record's payload with a byte flipped, and update the manifest and its sidecar to match.
    const records: Buffer[] = [];
    let changed = "";
    for await (const record of new WARCParser(createReadStream(warc), { parseHttp: false, keepHeadersCase: true })) {
      const block = Buffer.from(await record.readFully(false));
      if (!changed && record.warcType === "response") {
        block[block.length - 1]! ^= 0x01;
        changed = record.warcTargetURI ?? "";
      }
      record.warcHeaders.headers.set("Content-Length", String(block.length));
      const head = Buffer.from(`${record.warcHeaders.toString()}\r\n`, "utf8");
      records.push(Buffer.concat([head, block, Buffer.from("\r\n\r\n")]));
    }
    writeFileSync(warc, Buffer.concat(records));
    const rewritten = JSON.parse(readFileSync(join(target, MANIFEST), "utf8")) as Manifest;
    const entry = rewritten.files.find((f) => f.path === manifest.warc)!;
    entry.sha256 = sha256Hex(readFileSync(warc));
    entry.bytes = readFileSync(warc).length;
    const json = `${JSON.stringify(rewritten, null, 2)}\n`;
    writeFileSync(join(target, MANIFEST), json);
    writeFileSync(join(target, MANIFEST_SHA256), `${sha256Hex(json)}  ${MANIFEST}\n`);

    const alone = verify(target);
    expect(alone.status).not.toBe(0);
    expect(alone.output).toContain(`${manifest.warc}: response record ${changed}: block digest does not match`);
    // The rewritten manifest shows only against the hash recorded when the archive was made.
    const recorded = verify(target, "--manifest-sha256", manifestSha256);
    expect(recorded.output).toContain(`${MANIFEST}: its SHA-256`);
  });

  it("fails on a file added or removed, naming it", () => {
    const added = copy();
    appendFileSync(join(added, "extra.txt"), "not part of the archive\n");
    expect(verify(added).output).toContain("extra.txt: not listed in manifest.json");
    const removed = copy();
    rmSync(join(removed, manifest.pages[1]!.pdf));
    const result = verify(removed);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(`${manifest.pages[1]!.pdf}: missing (listed in manifest.json)`);
  });
});
