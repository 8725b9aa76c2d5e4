/**
 * Trusted time for captures (RFC 3161): a Time Stamp Authority signs the manifest's SHA-256 with its own
 * clock, so a capture's time of record does not rest on the capturing machine's clock, and a manifest
 * changed afterwards no longer matches its token. The token is kept exactly as the TSA sent it (the .tsr
 * `openssl ts -verify` reads), and trusted only through the TSA's CA as configured (ARCHIVE_TSA_CA), never
 * through the certificates it carries: anyone can make a certificate named like a TSA.
 *
 * Not checked: revocation (no CRL or OCSP is fetched) and the ESS signing-certificate attribute.
 */
import { createHash, webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import { pemSetting } from "../pem.ts";
import * as pkijs from "pkijs";

pkijs.setEngine("node", new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as Crypto }));

/** Thrown with one sentence a person can act on (TSA unreachable, refused, answered garbage). */
export class TimestampError extends Error {}

const SHA256 = "2.16.840.1.101.3.4.2.1";
const TST_INFO = "1.2.840.113549.1.9.16.1.4";
const EXTENDED_KEY_USAGE = "2.5.29.37";
const TIME_STAMPING = "1.3.6.1.5.5.7.3.8";
const STATUS = ["granted", "grantedWithMods", "rejection", "waiting", "revocationWarning", "revocationNotification"];
const NO_CA = "The Time Stamp Authority's CA certificate is not configured (ARCHIVE_TSA_CA), so the token's signature cannot be checked.";

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest();
const arrayBuffer = (data: Uint8Array) => new Uint8Array(data).buffer;

interface Token {
  signed: pkijs.SignedData;
  tstInfo: pkijs.TSTInfo;
}

/** Reads a TimeStampResp down to its TSTInfo; throws a TimestampError whose sentence starts with `subject`. */
function readToken(tsr: Uint8Array, subject: string): Token {
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(arrayBuffer(tsr));
  } catch {
    throw new TimestampError(`${subject} is not an RFC 3161 time-stamp response.`);
  }
  const status = response.status.status as number;
  if (status !== 0 && status !== 1) {
    const text = (response.status.statusStrings ?? []).map((s) => s.valueBlock.value).join(" ");
    throw new TimestampError(`${subject} is a refusal, not a timestamp (status ${STATUS[status] ?? status}${text ? `: "${text}"` : ""}).`);
  }
  try {
    const content = response.timeStampToken;
    if (content?.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw new Error("no SignedData");
    const signed = new pkijs.SignedData({ schema: content.content });
    const eContent = signed.encapContentInfo.eContent;
    if (signed.encapContentInfo.eContentType !== TST_INFO || !eContent) throw new Error("no TSTInfo");
    return { signed, tstInfo: pkijs.TSTInfo.fromBER(eContent.getValue()) };
  } catch {
    throw new TimestampError(`${subject} holds no timestamp token (CMS SignedData with TSTInfo content).`);
  }
}

/** Whether the token's imprint is SHA-256 and equals SHA-256(data); a sentence when not. */
function imprintProblem(tstInfo: pkijs.TSTInfo, data: Uint8Array, what: string): string | undefined {
  const imprint = tstInfo.messageImprint;
  if (imprint.hashAlgorithm.algorithmId !== SHA256)
    return `The timestamp token does not cover ${what} with SHA-256 (its hash algorithm is ${imprint.hashAlgorithm.algorithmId}).`;
  if (!sha256(data).equals(Buffer.from(imprint.hashedMessage.valueBlock.valueHexView)))
    return `The timestamp token does not cover ${what}: its hash differs.`;
}

/** POSTs a TimeStampReq (SHA-256 message imprint of `data`, a random 64-bit nonce, certReq: true) to the TSA (Content-Type application/timestamp-query), and returns the TimeStampResp DER bytes exactly as received (what `openssl ts -reply` writes as .tsr). Before returning it checks: HTTP 200, status granted (0) or grantedWithMods (1), the token's imprint equals SHA-256(data), the nonce equals the one sent. Times out (default 30 s) with a TimestampError. */
export async function requestTimestamp(tsaUrl: string, data: Uint8Array, options: { timeoutMs?: number } = {}): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const tsa = `The Time Stamp Authority at ${tsaUrl}`;
  // A nonce binds the answer to this request: an old response replayed by a proxy or cache is refused.
  const nonce = BigInt(`0x${Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString("hex")}`);
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: arrayBuffer(sha256(data)) }),
    }),
    nonce: asn1js.Integer.fromBigInt(nonce),
    certReq: true,
  });
  let body: Buffer;
  try {
    const response = await fetch(tsaUrl, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query" },
      body: new Uint8Array(request.toSchema().toBER()),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new TimestampError(`${tsa} answered HTTP ${response.status} instead of a timestamp; check ARCHIVE_TSA_URL or try again later.`);
    }
    body = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof TimestampError) throw error;
    if (error instanceof Error && error.name === "TimeoutError")
      throw new TimestampError(`${tsa} did not answer within ${timeoutMs / 1000} seconds; try again later.`, { cause: error });
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    throw new TimestampError(`${tsa} could not be reached (${why}); check ARCHIVE_TSA_URL and the network.`, { cause: error });
  }
  const { tstInfo } = readToken(body, `The answer of the Time Stamp Authority at ${tsaUrl}`);
  if (imprintProblem(tstInfo, data, "the data sent"))
    throw new TimestampError(`${tsa} answered with a token for other data (its SHA-256 imprint is not the one sent).`);
  if (tstInfo.nonce?.toBigInt() !== nonce)
    throw new TimestampError(`${tsa} answered with a token for another request (its nonce differs): a replayed or mixed-up response.`);
  return body;
}

export interface TimestampCheck {
  ok: boolean;
  /** The TSA's genTime, when the token could be read (shown as the capture's time of record). */
  genTime?: Date;
  /** The TSA's name (signer certificate subject, e.g. "CN=Demo TSA"), the token's serial number (hex) and policy OID. */
  tsa?: string;
  serial?: string;
  policy?: string;
  /** One plain sentence per problem; empty when ok. */
  problems: string[];
}

const NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
};
const nameOf = (name: pkijs.RelativeDistinguishedNames) =>
  name.typesAndValues.map((tv) => `${NAMES[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`).join(", ");

/** The certificates in PEM text, parsed; throws when there is none or one cannot be read. */
function parsePem(pem: string): pkijs.Certificate[] {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)];
  if (blocks.length === 0) throw new Error("no certificate");
  return blocks.map((block) => pkijs.Certificate.fromBER(arrayBuffer(Buffer.from(block[1]!.replace(/\s+/g, ""), "base64"))));
}

/** Checks a stored TimeStampResp against the data it must cover and the TSA's CA certificate (PEM; undefined when ARCHIVE_TSA_CA is not set): status granted; the token is CMS SignedData with TSTInfo content; the message imprint is SHA-256 and equals SHA-256(data); the signature verifies; the signer certificate chains to the CA; the signer certificate has the extended key usage timeStamping and that extension is critical; the signer certificate was valid at genTime. Never throws for a bad token: it reports problems. Without a CA: ok false with the problem "The Time Stamp Authority's CA certificate is not configured (ARCHIVE_TSA_CA), so the token's signature cannot be checked." (still return genTime etc. when readable). */
export async function verifyTimestamp(tsr: Uint8Array, data: Uint8Array, caPem: string | undefined): Promise<TimestampCheck> {
  let token: Token;
  try {
    token = readToken(tsr, "The timestamp token");
  } catch (error) {
    return { ok: false, problems: [error instanceof TimestampError ? error.message : "The timestamp token cannot be read."] };
  }
  const { signed, tstInfo } = token;
  const genTime = tstInfo.genTime;
  const serial = Buffer.from(tstInfo.serialNumber.valueBlock.valueHexView).toString("hex");
  const problems: string[] = [];
  const imprint = imprintProblem(tstInfo, data, "this manifest");
  if (imprint) problems.push(imprint);

  // The signature, with the signer certificate the token names (pkijs finds it by the signer's id).
  let signer: pkijs.Certificate | undefined;
  let signatureOk = false;
  try {
    const result = await signed.verify({ signer: 0, data: arrayBuffer(data), checkChain: false, extendedMode: true });
    signer = result.signerCertificate ?? undefined;
    signatureOk = result.signatureVerified === true;
  } catch (error) {
    signer = (error as pkijs.SignedDataVerifyError).signerCertificate ?? undefined;
  }
  const result = (more: string[]): TimestampCheck => {
    const all = [...problems, ...more];
    return { ok: all.length === 0, genTime, tsa: signer && nameOf(signer.subject), serial, policy: tstInfo.policy, problems: all };
  };
  if (!caPem) return result([NO_CA]);
  if (!signer) return result(["The timestamp token does not include its signer's certificate, so its signature cannot be checked."]);
  // A token for other data fails pkijs's check before the signature is read: the hash problem says it all.
  if (!signatureOk && !imprint) problems.push("The timestamp token's signature does not verify.");

  const eku = signer.extensions?.find((extension) => extension.extnID === EXTENDED_KEY_USAGE);
  const purposes = eku?.parsedValue instanceof pkijs.ExtKeyUsage ? eku.parsedValue.keyPurposes : [];
  if (!purposes.includes(TIME_STAMPING))
    problems.push(
      "The timestamp token was signed by a certificate not meant for timestamps (it lacks the timeStamping extended key usage).",
    );
  else if (!eku?.critical)
    problems.push(
      "The timestamp token's signer certificate does not mark its timeStamping extended key usage critical, as RFC 3161 requires.",
    );
  const validAtGenTime = signer.notBefore.value <= genTime && genTime <= signer.notAfter.value;
  if (!validAtGenTime)
    problems.push(`The timestamp token's signer certificate was not valid at the token's time (${genTime.toISOString()}).`);

  let trusted: pkijs.Certificate[];
  try {
    trusted = parsePem(caPem);
  } catch {
    return result(["The configured Time Stamp Authority's CA certificate (ARCHIVE_TSA_CA) cannot be read as a PEM certificate."]);
  }
  // The signer goes last: pkijs takes the last certificate as the one whose chain it builds.
  const others = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate && c !== signer);
  // A signer outside its validity at genTime is said above; the chain is then checked as of its issue.
  const checkDate = validAtGenTime ? genTime : signer.notBefore.value;
  let chain: { result: boolean; resultCode?: number };
  try {
    chain = await new pkijs.CertificateChainValidationEngine({ trustedCerts: trusted, certs: [...others, signer], checkDate }).verify();
  } catch (error) {
    chain = { result: false, resultCode: (error as { resultCode?: number }).resultCode };
  }
  // pkijs's code 8: a certificate of the path was outside its validity at checkDate.
  if (!chain.result && chain.resultCode === 8)
    problems.push("The Time Stamp Authority's CA certificate was not valid at the token's time.");
  else if (!chain.result) problems.push("The timestamp token was not signed by a certificate of the configured Time Stamp Authority's CA.");
  return result([]);
}

/** ARCHIVE_TSA_CA: the PEM text itself or a PEM file's path (lib/pem.ts); undefined when unset; TimestampError when the file cannot be used. */
export const loadTsaCa = (value: string | undefined): string | undefined =>
  pemSetting("ARCHIVE_TSA_CA", value, (message, cause) => new TimestampError(message, { cause }));
