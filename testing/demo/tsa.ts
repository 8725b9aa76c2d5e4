/**
 * A real RFC 3161 Time Stamp Authority on loopback, for the archive's demo and tests: Debian's OpenSSL 3
 * alone (`openssl ts -reply`) behind a small HTTP handler, with its own CA, so a token it issues verifies
 * with `openssl ts -verify` as a commercial TSA's would. Never the firm's TSA: its keys live in a
 * temporary folder.
 *
 * Replies are made one at a time: `openssl ts -reply` reads, increments and rewrites the serial file,
 * and two at once could give two tokens the same serial number.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { listenOnLoopback } from "../../lib/ports.ts";

export interface DemoTsa {
  /** Where to POST a TimeStampReq (http://127.0.0.1:<port>/). */
  url: string;
  /** The CA certificate that issued the TSA's certificate (PEM), as ARCHIVE_TSA_CA takes it, and its file. */
  caPem: string;
  caFile: string;
  /** Where the keys, certificates, configuration and serial file are. */
  folder: string;
  stop(): Promise<void>;
}

export const DEMO_TSA_NAME = "Demo TSA";
export const DEMO_TSA_POLICY = "1.2.3.4.1";
/** A query is a few hundred bytes; anything much larger is not one. */
const MAX_QUERY = 64 * 1024;

const run = promisify(execFile);

/** One file for everything: `openssl req` and `x509` read the extensions, `openssl ts` the [tsa] section. */
const config = (folder: string) => `# The demo Time Stamp Authority's OpenSSL configuration (testing/demo/tsa.ts).
[req]
distinguished_name = req_dn
prompt = no
[req_dn]
CN = unused

[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[tsa_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid

[tsa]
default_tsa = demo_tsa

[demo_tsa]
dir = ${folder}
serial = $dir/tsa-serial
crypto_device = builtin
signer_cert = $dir/tsa.crt
signer_key = $dir/tsa.key
certs = $dir/ca.crt
signer_digest = sha256
default_policy = ${DEMO_TSA_POLICY}
other_policies = 1.2.3.4.2
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

/** Makes the CA, the TSA's certificate and the configuration in `folder`, then serves replies on loopback. */
export async function startDemoTsa(options: { folder?: string } = {}): Promise<DemoTsa> {
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), "demo-tsa-"));
  const madeFolder = options.folder === undefined;
  const file = (name: string) => join(folder, name);
  // Our configuration only: the machine's openssl.cnf must not change what the demo makes.
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", OPENSSL_CONF: file("openssl.cnf") };
  const openssl = (...args: string[]) => run("openssl", args, { env, timeout: 30_000 });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-noenc"];
  try {
    // A folder the caller names may not exist yet: `npm run records:demo` removes its own folder, then asks for tsa/ in it.
    mkdirSync(folder, { recursive: true });
    writeFileSync(file("openssl.cnf"), config(folder));
    writeFileSync(file("tsa-serial"), "00\n"); // openssl adds one before each token: the first is 01
    const ca = ["-subj", "/CN=Demo TSA Root CA", "-days", "3650", "-extensions", "ca_ext"];
    await openssl("req", "-x509", ...ec, "-keyout", file("ca.key"), "-out", file("ca.crt"), ...ca);
    await openssl("req", "-new", ...ec, "-keyout", file("tsa.key"), "-out", file("tsa.csr"), "-subj", `/CN=${DEMO_TSA_NAME}`);
    const issuer = ["-CA", file("ca.crt"), "-CAkey", file("ca.key"), "-set_serial", `0x${randomBytes(8).toString("hex")}`, "-days", "825"];
    const tsaExtensions = ["-extfile", file("openssl.cnf"), "-extensions", "tsa_ext"];
    await openssl("x509", "-req", "-in", file("tsa.csr"), ...issuer, "-sha256", ...tsaExtensions, "-out", file("tsa.crt"));
  } catch (error) {
    if (madeFolder) rmSync(folder, { recursive: true, force: true });
    throw new Error(`The demo Time Stamp Authority could not make its certificates with openssl: ${oneLine(error)}`, { cause: error });
  }

  let queue: Promise<unknown> = Promise.resolve();
  let count = 0;
  /** Runs `openssl ts -reply` on one query, after the replies already asked for. */
  const reply = (query: Buffer): Promise<Buffer> => {
    const n = ++count;
    const result = queue.then(async () => {
      const [q, r] = [file(`query-${n}.tsq`), file(`reply-${n}.tsr`)];
      try {
        await writeFile(q, query);
        await openssl("ts", "-reply", "-config", file("openssl.cnf"), "-queryfile", q, "-out", r);
        return await readFile(r);
      } finally {
        await Promise.all([rm(q, { force: true }), rm(r, { force: true })]);
      }
    });
    queue = result.catch(() => undefined);
    return result;
  };

  const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(`${text}\n`);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST") return answer(res, 405, "Send a time-stamp query with POST.", { allow: "POST" });
    if (req.headers["content-type"]?.split(";")[0]!.trim().toLowerCase() !== "application/timestamp-query")
      return answer(res, 400, "The body must be a time-stamp query (Content-Type: application/timestamp-query).");
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_QUERY) return answer(res, 400, "The time-stamp query is too large.", { connection: "close" });
      chunks.push(chunk);
    }
    if (size === 0) return answer(res, 400, "The time-stamp query is empty.");
    // A query openssl cannot read still gets a TimeStampResp (status rejection): a failure here is ours.
    const token = await reply(Buffer.concat(chunks));
    res.writeHead(200, { "content-type": "application/timestamp-reply", "content-length": token.length }).end(token);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) answer(res, 500, `The demo Time Stamp Authority could not make a reply: ${oneLine(error)}`);
      else res.destroy();
    });
  });
  let port: number;
  try {
    port = await listenOnLoopback(server);
  } catch (error) {
    if (madeFolder) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const caFile = file("ca.crt");
  return {
    url: `http://127.0.0.1:${port}/`,
    caPem: readFileSync(caFile, "utf8"),
    caFile,
    folder,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // A reply under way still has its openssl running: let it finish before its folder goes.
      await queue;
      if (madeFolder) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** openssl's own error line when it printed one (its stderr also says what went well), else the message. */
const oneLine = (error: unknown) => {
  const lines = ((error as { stderr?: string }).stderr || (error instanceof Error ? error.message : String(error))).trim().split("\n");
  return lines.find((line) => /error/i.test(line)) ?? lines[0];
};
