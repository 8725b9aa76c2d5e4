/**
 * Trusted time (lib/records/timestamp.ts) against a real Time Stamp Authority on loopback (OpenSSL's
 * `openssl ts -reply`, testing/demo/tsa.ts), its tokens cross-checked with `openssl ts -verify`.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenOnLoopback, osFreePort } from "../../lib/ports.ts";
import { loadTsaCa, requestTimestamp, TimestampError, verifyTimestamp } from "../../lib/records/timestamp.ts";
import { startDemoTsa, type DemoTsa } from "../../testing/demo/tsa.ts";

const run = promisify(execFile);
const manifest = Buffer.from('{"format":"site-archive/2","kind":"deploy"}\n');
const oneByteChanged = (bytes: Uint8Array, at: number) => Buffer.from(bytes.map((b, i) => (i === at ? b ^ 0x01 : b)));

let tsa: DemoTsa;
let work: string;
let token: Buffer;
const servers: Server[] = [];

beforeAll(async () => {
  tsa = await startDemoTsa();
  work = mkdtempSync(join(tmpdir(), "timestamp-test-"));
  token = await requestTimestamp(tsa.url, manifest);
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  await tsa?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A stand-in TSA that answers every request as `handler` says. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  return `http://127.0.0.1:${await listenOnLoopback(server)}/`;
}

/** A new P-256 key in the work folder, as `openssl req` arguments. */
const newKey = (name: string) => ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-noenc", "-keyout", join(work, `${name}.key`)];

/** A CA of its own (not the demo TSA's), made with openssl; its certificate's PEM. */
async function makeCa(name: string) {
  const extensions = ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"];
  await run("openssl", ["req", "-x509", ...newKey(name), "-out", join(work, `${name}.crt`), "-subj", `/CN=${name}`, ...extensions]);
  return readFileSync(join(work, `${name}.crt`), "utf8");
}

/** A certificate the demo TSA's CA issues with `extensions`, made with openssl. */
async function issue(name: string, extensions: string) {
  writeFileSync(join(work, `${name}.ext`), `[ext]\n${extensions}\n`);
  await run("openssl", ["req", "-new", ...newKey(name), "-out", join(work, `${name}.csr`), "-subj", `/CN=${name}`]);
  const ca = ["-CA", tsa.caFile, "-CAkey", join(tsa.folder, "ca.key"), "-set_serial", `0x${randomBytes(8).toString("hex")}`];
  const ext = ["-extfile", join(work, `${name}.ext`), "-extensions", "ext"];
  await run("openssl", ["x509", "-req", "-in", join(work, `${name}.csr`), ...ca, ...ext, "-out", join(work, `${name}.crt`)]);
}

/** The token's SignedData, read with pkijs. */
const signedDataOf = (tsr: Uint8Array) =>
  new pkijs.SignedData({ schema: pkijs.TimeStampResp.fromBER(new Uint8Array(tsr).buffer).timeStampToken!.content });

/** A one-sentence TimestampError whose message matches `pattern`. */
async function expectSentence(promise: Promise<unknown>, pattern: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TimestampError);
  const message = (error as Error).message;
  expect(message).toMatch(pattern);
  expect(message).toMatch(/^[A-Z][^\n]*\.$/);
}

describe("a timestamp from the demo Time Stamp Authority", () => {
  it("verifies, with the TSA's name, its policy and a genTime within a minute of now", async () => {
    const check = await verifyTimestamp(token, manifest, tsa.caPem);
    expect(check).toMatchObject({ ok: true, problems: [], tsa: "CN=Demo TSA", policy: "1.2.3.4.1" });
    expect(check.serial).toMatch(/^[0-9a-f]+$/);
    expect(Math.abs(check.genTime!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("is accepted by openssl ts -verify, which refuses it once the data changes by one byte", async () => {
    const [data, tsr] = [join(work, "manifest.json"), join(work, "manifest.json.tsr")];
    writeFileSync(data, manifest);
    writeFileSync(tsr, token);
    const verify = () => run("openssl", ["ts", "-verify", "-data", data, "-in", tsr, "-CAfile", tsa.caFile]);
    expect((await verify()).stdout).toContain("Verification: OK");
    writeFileSync(data, oneByteChanged(manifest, 3));
    await expect(verify()).rejects.toMatchObject({ code: 1 });
  });

  it("reports a problem when the data changes by one byte", async () => {
    const check = await verifyTimestamp(token, oneByteChanged(manifest, 3), tsa.caPem);
    expect(check).toMatchObject({ ok: false, problems: ["The timestamp token does not cover this manifest: its hash differs."] });
  });

  it("reports a problem when one byte of the token's signature is flipped", async () => {
    const signature = Buffer.from(signedDataOf(token).signerInfos[0]!.signature.valueBlock.valueHexView);
    // The last byte of an ECDSA signature is inside its s value: the DER stays readable, the value wrong.
    const at = token.indexOf(signature) + signature.length - 1;
    expect(token.indexOf(signature)).toBeGreaterThan(0);
    const check = await verifyTimestamp(oneByteChanged(token, at), manifest, tsa.caPem);
    expect(check).toMatchObject({ ok: false, problems: ["The timestamp token's signature does not verify."] });
  });

  it("reports a problem when checked against another CA", async () => {
    const check = await verifyTimestamp(token, manifest, await makeCa("Other CA"));
    expect(check.problems).toEqual(["The timestamp token was not signed by a certificate of the configured Time Stamp Authority's CA."]);
  });

  it("is not ok when no CA is configured, and still tells the time and the TSA", async () => {
    const check = await verifyTimestamp(token, manifest, undefined);
    expect(check).toMatchObject({ ok: false, tsa: "CN=Demo TSA", genTime: expect.any(Date) });
    expect(check.problems).toEqual([
      "The Time Stamp Authority's CA certificate is not configured (ARCHIVE_TSA_CA), so the token's signature cannot be checked.",
    ]);
  });

  it("reports bytes that are no time-stamp response, without throwing", async () => {
    const check = await verifyTimestamp(Buffer.from("not a token"), manifest, tsa.caPem);
    expect(check).toEqual({ ok: false, problems: ["The timestamp token is not an RFC 3161 time-stamp response."] });
  });

  // `openssl ts -reply` refuses to sign with a certificate lacking the critical timeStamping usage
  // ("invalid signer certificate purpose"), so these tokens are the demo TSA's own TSTInfo re-signed with
  // `openssl cms` by a certificate of the same CA whose extended key usage is missing or not critical.
  it.each([
    ["lacks the timeStamping extended key usage", "No EKU", "", /lacks the timeStamping extended key usage/],
    ["marks it non-critical", "Non-critical EKU", "extendedKeyUsage = timeStamping", /does not mark .* critical/],
  ])("reports a token whose signer's certificate %s", async (_, signer, eku, problem) => {
    await issue(signer, `keyUsage = critical, digitalSignature\n${eku}`);
    // A token asked for after the certificate was made: its genTime falls within the certificate's validity.
    const fresh = await requestTimestamp(tsa.url, manifest);
    const tstInfo = join(work, `${signer}.tst`);
    writeFileSync(tstInfo, Buffer.from(signedDataOf(fresh).encapContentInfo.eContent!.getValue()));
    const key = ["-signer", join(work, `${signer}.crt`), "-inkey", join(work, `${signer}.key`), "-md", "sha256"];
    const content = ["-econtent_type", "1.2.840.113549.1.9.16.1.4", "-in", tstInfo];
    const { stdout: cms } = await run("openssl", ["cms", "-sign", "-binary", "-nodetach", ...content, ...key, "-outform", "DER"], {
      encoding: "buffer",
    });
    const response = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
      timeStampToken: pkijs.ContentInfo.fromBER(new Uint8Array(cms).buffer),
    });
    const check = await verifyTimestamp(new Uint8Array(response.toSchema().toBER()), manifest, tsa.caPem);
    expect(check.ok).toBe(false);
    expect(check.tsa).toBe(`CN=${signer}`);
    expect(check.problems).toEqual([expect.stringMatching(problem)]);
  });
});

describe("the demo Time Stamp Authority in a folder it is given", () => {
  it("makes the folder when it does not exist yet (npm run records:demo names one inside a folder it has just removed)", async () => {
    const folder = join(work, "records-demo", "tsa");
    const named = await startDemoTsa({ folder });
    try {
      expect(named.caFile).toBe(join(folder, "ca.crt"));
      expect((await verifyTimestamp(await requestTimestamp(named.url, manifest), manifest, named.caPem)).ok).toBe(true);
    } finally {
      await named.stop();
    }
  });
});

describe("requestTimestamp", () => {
  it("throws one sentence when nothing listens at the TSA's address", async () => {
    await expectSentence(requestTimestamp(`http://127.0.0.1:${await osFreePort()}/`, manifest), /could not be reached \(ECONNREFUSED\)/);
  });

  it("throws one sentence when the TSA answers HTTP 500", async () => {
    const url = await serve((_req, res) => res.writeHead(500).end("down"));
    await expectSentence(requestTimestamp(url, manifest), /answered HTTP 500 instead of a timestamp/);
  });

  it("throws one sentence when the answer's nonce is not the one sent (an earlier response replayed)", async () => {
    const url = await serve((_req, res) => res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(token));
    await expectSentence(requestTimestamp(url, manifest), /nonce differs/);
  });

  it("throws one sentence when the TSA rejects the request", async () => {
    const rejection = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({
        status: pkijs.PKIStatus.rejection,
        statusStrings: [new asn1js.Utf8String({ value: "policy not accepted" })],
      }),
    });
    const url = await serve((_req, res) => res.writeHead(200).end(Buffer.from(rejection.toSchema().toBER())));
    await expectSentence(
      requestTimestamp(url, manifest),
      /^The answer of the Time Stamp Authority at .* is a refusal, not a timestamp \(status rejection: "policy not accepted"\)/,
    );
  });

  it("throws one sentence when the TSA answers something else, or nothing in time", async () => {
    const garbage = await serve((_req, res) => res.writeHead(200).end("<html>hello</html>"));
    await expectSentence(requestTimestamp(garbage, manifest), /is not an RFC 3161 time-stamp response/);
    const silent = await serve(() => {});
    await expectSentence(requestTimestamp(silent, manifest, { timeoutMs: 200 }), /did not answer within 0\.2 seconds/);
  });

  it("asks for the SHA-256 of the data; the demo TSA refuses other methods, content types and unreadable queries", async () => {
    expect((await fetch(tsa.url)).status).toBe(405);
    const wrongType = await fetch(tsa.url, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect([wrongType.status, (await wrongType.text()).trim().split("\n").length]).toEqual([400, 1]);
    // A query openssl cannot read is answered as RFC 3161 says: a TimeStampResp with status rejection.
    const garbage = await fetch(tsa.url, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body: "x" });
    expect(pkijs.TimeStampResp.fromBER(await garbage.arrayBuffer()).status.status).toBe(pkijs.PKIStatus.rejection);
    const tst = pkijs.TSTInfo.fromBER(signedDataOf(await requestTimestamp(tsa.url, manifest)).encapContentInfo.eContent!.getValue());
    expect(Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView)).toEqual(createHash("sha256").update(manifest).digest());
  });
});

describe("loadTsaCa", () => {
  it("takes PEM text as it is, reads a path, and gives undefined when unset", () => {
    expect(loadTsaCa(tsa.caPem)).toBe(tsa.caPem);
    expect(loadTsaCa(tsa.caFile)).toBe(tsa.caPem);
    expect(loadTsaCa(undefined)).toBeUndefined();
    expect(loadTsaCa("")).toBeUndefined();
  });

  it("throws a TimestampError naming a file that cannot be read", () => {
    const missing = join(work, "no-such-ca.pem");
    expect(() => loadTsaCa(missing)).toThrow(TimestampError);
    expect(() => loadTsaCa(missing)).toThrow(`ARCHIVE_TSA_CA names the file ${missing}, which cannot be read (ENOENT).`);
  });
});
