/**
 * The one WARC reader, for verification and for the studio's replay: every record with its raw block
 * (what its block and payload digests cover) and, for a request or response, its status line, header
 * lines and payload as recorded, parsed by warcio's own HTTP parser. Header names keep their case and
 * repeats are kept (warcio's HeadersMultiMap); the payload is as transferred (still brotli- or
 * gzip-encoded where it was).
 */
import { Readable } from "node:stream";
import { AsyncIterReader, HeadersMultiMap, StatusAndHeadersParser, WARCParser } from "warcio";

/** An HTTP message as recorded. */
export interface HttpMessage {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  /** The body after the header lines, as transferred. */
  payload: Buffer;
}

export interface WarcEntry {
  type: string;
  url: string;
  recordId: string;
  /** WARC-Date: when it was recorded. */
  date: string;
  blockDigest: string | null;
  payloadDigest: string | null;
  /** The record's block: for HTTP records, the header lines and the payload. */
  block: Buffer;
  /** The parsed message, for request, response and revisit records that carry one. */
  http: HttpMessage | null;
}

const HTTP_TYPES = new Set(["request", "response", "revisit"]);

async function parseHttp(block: Buffer): Promise<HttpMessage | null> {
  if (block.length === 0) return null;
  // No decompression or de-chunking: the payload stays the bytes the digests cover.
  const reader = new AsyncIterReader([block], null, false);
  const head = await new StatusAndHeadersParser().parse(reader, { headersClass: HeadersMultiMap });
  if (!head) return null;
  const status = Number(head.statusCode);
  return {
    // A request's first line has a method, not a status: 0.
    status: Number.isInteger(status) ? status : 0,
    statusText: head.statusText ?? "",
    headers: [...head.headers],
    payload: Buffer.from(await reader.readFully()),
  };
}

/** Every record of a WARC, in order. Throws on bytes that are not WARC. */
export async function* readWarc(bytes: Buffer): AsyncGenerator<WarcEntry> {
  for await (const record of new WARCParser(Readable.from([bytes]), { parseHttp: false })) {
    const type = record.warcType ?? "";
    // warcio reads any bytes as a record; one without a WARC-Type is not WARC.
    if (!type) throw new Error("a record has no WARC-Type, so these bytes are not WARC");
    const block = Buffer.from(await record.readFully(false));
    yield {
      type,
      url: record.warcTargetURI ?? "",
      recordId: record.warcHeader("WARC-Record-ID") ?? "",
      date: record.warcDate ?? "",
      blockDigest: record.warcBlockDigest ?? null,
      payloadDigest: record.warcPayloadDigest ?? null,
      block,
      http: HTTP_TYPES.has(type) ? await parseHttp(block) : null,
    };
  }
}
