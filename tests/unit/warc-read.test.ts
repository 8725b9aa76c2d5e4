/**
 * The one WARC reader (lib/records/warc-read.ts) on records warcio itself writes: the status, the
 * header lines with their case and repeats, the payload as transferred, and the raw block the
 * digests cover.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WARCRecord, WARCSerializer } from "warcio";
import { readWarc } from "../../lib/records/warc-read.ts";

async function warcOf(records: WARCRecord[]): Promise<Buffer> {
  const parts = await Promise.all(records.map((record) => WARCSerializer.serialize(record, { gzip: true })));
  return Buffer.concat(parts.map((part) => Buffer.from(part)));
}

const body = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a, 0x41]);
async function* chunks() {
  yield new Uint8Array(body);
}

describe("readWarc", () => {
  it("gives each record's status, header lines as written and payload as transferred", async () => {
    const response = WARCRecord.create(
      {
        url: "https://example.com/a",
        type: "response",
        statusline: "HTTP/1.1 404 Not Found",
        httpHeaders: { "Content-Encoding": "gzip", "X-Kept-Case": "yes" },
      },
      chunks(),
    );
    const request = WARCRecord.create(
      { url: "https://example.com/a", type: "request", statusline: "GET /a HTTP/1.1", httpHeaders: { Host: "example.com" } },
      (async function* () {})(),
    );
    const entries = [];
    for await (const entry of readWarc(await warcOf([response, request]))) entries.push(entry);
    expect(entries.map((e) => [e.type, e.url])).toEqual([
      ["response", "https://example.com/a"],
      ["request", "https://example.com/a"],
    ]);
    const [got, asked] = entries;
    expect(got!.http).toMatchObject({ status: 404, statusText: "Not Found" });
    expect(got!.http!.headers).toEqual(
      expect.arrayContaining([
        ["Content-Encoding", "gzip"],
        ["X-Kept-Case", "yes"],
      ]),
    );
    // Bytes that look like gzip and a blank line stay as they are: no decoding, no splitting.
    expect(got!.http!.payload.equals(body)).toBe(true);
    expect(got!.blockDigest).toBe(`sha256:${createHash("sha256").update(got!.block).digest("hex")}`);
    expect(got!.payloadDigest).toBe(`sha256:${createHash("sha256").update(body).digest("hex")}`);
    expect(asked!.http).toMatchObject({ status: 0, headers: [["Host", "example.com"]] });
  });

  it("refuses bytes that are not WARC", async () => {
    await expect(async () => {
      for await (const entry of readWarc(Buffer.from("not a web archive\r\n\r\n"))) void entry;
    }).rejects.toThrow();
  });
});
