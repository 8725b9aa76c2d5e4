/**
 * The deploy job's path, run here for real: `npm run records:capture` into S3 with Object Lock (Ceph's radosgw,
 * testing/ceph.ts) with a Time Stamp Authority on loopback (testing/demo/tsa.ts), then
 * `npm run records:verify -- --store` reading it back: every object in COMPLIANCE mode until the
 * retention asked for, the capture's WACZ among them, the token and the WACZ's signature checked. And the faults: a bucket without Object Lock, an unreachable
 * store or TSA (one sentence, non-zero, nothing stored), an object rewritten or hidden in the store
 * after the fact (named). Without radosgw the file is skipped locally; with CI=true it fails.
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, connect, type Socket } from "node:net";
import { listenOnLoopback, osFreePort } from "../../lib/ports.ts";
import { studioOnThrowawayClone } from "../../testing/studio/trial.ts";
import { select } from "hast-util-select";
import { toText } from "hast-util-to-text";
import { parseHtml } from "../../lib/html.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { startDemoTsa, type DemoTsa } from "../../testing/demo/tsa.ts";
import { startCephS3, type CephS3 } from "../../testing/ceph.ts";
import { dist, projectRoot, requireBuild } from "../server/support.ts";
import { FEW_PAGES, smallDist } from "../support/small-dist.ts";

const skip = (!available("radosgw") || !available("chromium")) && !isCI();
const LOCKED = "site-archive";
const PLAIN = "no-object-lock";
const PREFIX = "records";

let ceph: CephS3;
let tsa: DemoTsa;
let s3: S3Client;
let scratch: string;
let first: { status: number | null; output: string };
let capture = "";
let waczKeyFile = "";
/**
 * What these captures take: two pages and the 404 of the build (tests/support/small-dist.ts). The store,
 * its locks and the tokens are the subject here; every page of the site is captured by capture.test.ts.
 */
let pagesDist = "";
/** `npm run records:capture` of those pages, with `more` options. */
const captureOf = (...more: string[]) => ["records:capture", "--", "--dist", pagesDist, ...more];

// Without Vitest's NODE_ENV=test: a build started from here would otherwise bundle React's development build.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
/** An npm script as the deploy job runs it (asynchronously: the TSA in this process must keep answering). */
function npm(args: string[], env: NodeJS.ProcessEnv, heard?: (output: string) => void): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", ...args], { cwd: projectRoot, env: { ...baseEnv, ...env } });
    let output = "";
    const hear = (chunk: Buffer) => ((output += chunk), heard?.(output));
    child.stdout.on("data", hear);
    child.stderr.on("data", hear);
    child.on("close", (status) => resolve({ status, output }));
  });
}
const storeEnv = (bucket = LOCKED, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ARCHIVE_STORE: `s3://${bucket}/${PREFIX}`,
  ARCHIVE_RETENTION_DAYS: "3",
  AWS_ENDPOINT_URL: ceph.endpoint,
  AWS_REGION: ceph.region,
  AWS_ACCESS_KEY_ID: ceph.accessKeyId,
  AWS_SECRET_ACCESS_KEY: ceph.secretAccessKey,
  ARCHIVE_TSA_URL: tsa.url,
  ARCHIVE_TSA_CA: tsa.caFile,
  ARCHIVE_WACZ_KEY: waczKeyFile,
  ...extra,
});
const keys = async (bucket: string) =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!).sort();

beforeAll(async () => {
  if (skip) return;
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), "archive-s3-"));
  // A test key, made here: never a key of the firm's.
  waczKeyFile = join(scratch, "wacz-key.pem");
  writeFileSync(waczKeyFile, generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" }));
  pagesDist = smallDist(dist, FEW_PAGES, join(scratch, "dist"));
  [ceph, tsa] = await Promise.all([startCephS3(), startDemoTsa()]);
  s3 = new S3Client({ endpoint: ceph.endpoint, region: ceph.region, credentials: ceph, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: LOCKED, ObjectLockEnabledForBucket: true }));
  await s3.send(new CreateBucketCommand({ Bucket: PLAIN }));
  first = await npm(captureOf("--kind", "deploy"), storeEnv());
  capture = /stored (\d{8}T\d{6}Z) in s3:/.exec(first.output)?.[1] ?? "";
}, 240_000);
afterAll(async () => {
  s3?.destroy();
  await Promise.all([ceph?.stop(), tsa?.stop()]);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(skip)("npm run records:capture into S3 with Object Lock", () => {
  it("stores the capture and its WACZ, the manifest last, every object locked in COMPLIANCE mode for the retention asked for", async () => {
    expect(first.status, first.output).toBe(0);
    expect(first.output).toMatch(/records:capture: capture\.wacz written \([\d.]+ MB\), signed\n/);
    expect(first.output).toMatch(/✓ Trusted time: A Time Stamp Authority \(CN=Demo TSA\) signed this manifest's hash on/);
    expect(first.output).toMatch(/✓ Write-once storage: Every object is locked in COMPLIANCE mode until/);
    const stored = await keys(LOCKED);
    expect(stored).toContain(`${PREFIX}/${capture}/manifest.json`);
    expect(stored).toContain(`${PREFIX}/${capture}/manifest.json.tsr`);
    expect(stored).toContain(`${PREFIX}/${capture}/capture.wacz`);
    // One PDF for each page captured.
    expect(stored.filter((key) => key.endsWith(".pdf"))).toEqual(FEW_PAGES.map((page) => `${PREFIX}/${capture}/pdf${page}.pdf`).sort());
    for (const key of stored) {
      const head = await s3.send(new HeadObjectCommand({ Bucket: LOCKED, Key: key }));
      expect(head.ObjectLockMode, key).toBe("COMPLIANCE");
      const days = (head.ObjectLockRetainUntilDate!.getTime() - Date.now()) / 86_400_000;
      expect(days, key).toBeGreaterThan(2.9);
      expect(days, key).toBeLessThan(3.1);
    }
    // The manifest was written after every file it lists (the capture is complete only once it is there).
    const times = await Promise.all(
      stored.map(
        async (key) => [key, (await s3.send(new HeadObjectCommand({ Bucket: LOCKED, Key: key }))).LastModified!.getTime()] as const,
      ),
    );
    const manifestAt = times.find(([key]) => key.endsWith("/manifest.json"))![1];
    expect(Math.max(...times.map(([, at]) => at))).toBe(manifestAt);
  });

  it("records:verify -- --store reads it back as intact, token, WACZ and locks included", async () => {
    const verified = await npm(["records:verify", "--", "--store", capture], storeEnv());
    expect(verified.status, verified.output).toBe(0);
    expect(verified.output).toContain(`✓ ${capture}`);
    // The WACZ's signature timestamped by the TSA as the capture was made.
    expect(verified.output).toMatch(
      /✓ WACZ: capture\.wacz holds this capture .*; signed by the key with SHA-256 fingerprint [0-9a-f]{12}… and timestamped on /,
    );
    expect(verified.output).toContain("✓ Write-once storage");
  });

  it("refuses a bucket without Object Lock before capturing, in one sentence, writing nothing", async () => {
    const refused = await npm(["records:capture"], storeEnv(PLAIN));
    expect(refused.status).not.toBe(0);
    expect(refused.output.trim().split("\n").at(-1)).toMatch(/^records:capture: s3:\/\/no-object-lock\/records has no Object Lock/);
    expect(refused.output).not.toContain("capturing");
    expect(await keys(PLAIN)).toEqual([]);
  });

  it("says in one sentence that the store cannot be reached, and stores nothing", async () => {
    const closed = `http://127.0.0.1:${await osFreePort()}`;
    const before = await keys(LOCKED);
    const noStore = await npm(["records:capture"], storeEnv(LOCKED, { AWS_ENDPOINT_URL: closed }));
    expect(noStore.status).not.toBe(0);
    expect(noStore.output.trim().split("\n").at(-1)).toMatch(/^records:capture: .*s3:\/\/site-archive\/records.*\.$/);
    expect(noStore.output).not.toContain("capturing");
    expect(await keys(LOCKED)).toEqual(before);
  });

  it("the store gone while the site is captured: a non-zero exit naming it, and no capture shown as complete", async () => {
    const before = await keys(LOCKED);
    // The store answers through a relay on loopback, which stops once the capture has begun.
    const relay = await tcpRelay(new URL(ceph.endpoint));
    const run = npm(captureOf(), storeEnv(LOCKED, { AWS_ENDPOINT_URL: relay.url }), (output) => {
      if (output.includes("records:capture: capturing")) void relay.close();
    });
    const failed = await run;
    await relay.close();
    expect(failed.output).toContain("records:capture: capturing");
    expect(failed.status).not.toBe(0);
    expect(failed.output.trim().split("\n").at(-1)).toMatch(
      /^records:capture: (Looking for \d{8}T\d{6}Z in|Writing \d{8}T\d{6}Z\/\S+ to) s3:\/\/site-archive\/records failed: /,
    );
    expect(failed.output).not.toMatch(/records:capture: stored/);
    const added = (await keys(LOCKED)).filter((key) => !before.includes(key));
    expect(added.filter((key) => key.endsWith("/manifest.json"))).toEqual([]);
  });

  it("names an object rewritten in the store afterwards, and one hidden by a delete marker", async () => {
    const pdf = `${PREFIX}/${capture}/pdf/privacy-policy.pdf`;
    const bytes = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: LOCKED, Key: pdf }))).Body!.transformToByteArray());
    bytes[bytes.length >> 1]! ^= 1;
    // Object Lock keeps the old version, but a new version of the key is allowed and becomes what is read.
    await s3.send(new PutObjectCommand({ Bucket: LOCKED, Key: pdf, Body: bytes }));
    await s3.send(new DeleteObjectCommand({ Bucket: LOCKED, Key: `${PREFIX}/${capture}/pdf/cookie-policy.pdf` }));
    const verified = await npm(["records:verify", "--", "--store", capture], storeEnv());
    expect(verified.status).toBe(1);
    expect(verified.output).toContain("pdf/privacy-policy.pdf: altered");
    expect(verified.output).toContain("pdf/cookie-policy.pdf: missing (listed in manifest.json)");
    expect(verified.output).toMatch(/pdf\/privacy-policy\.pdf: not locked in COMPLIANCE mode/);
  });
});

describe.skipIf(skip)("the Time Stamp Authority down at capture", () => {
  let waiting = "";

  it("the capture is stored all the same, its time not yet certified", async () => {
    const closed = `http://127.0.0.1:${await osFreePort()}`;
    const run = await npm(captureOf("--kind", "scheduled"), storeEnv(LOCKED, { ARCHIVE_TSA_URL: closed }));
    expect(run.status, run.output).toBe(0);
    waiting = /stored (\d{8}T\d{6}Z) in s3:/.exec(run.output)?.[1] ?? "";
    expect(waiting).not.toBe("");
    expect(run.output).toContain(
      `records:capture: ${waiting}'s time is not yet certified by the Time Stamp Authority; the next npm run records:capture asks for its token again.`,
    );
    expect(run.output).toMatch(
      /✓ Trusted time: Not yet certified: the Time Stamp Authority could not be reached when this capture was made/,
    );
    const stored = await keys(LOCKED);
    expect(stored).toContain(`${PREFIX}/${waiting}/manifest.json`);
    expect(stored).toContain(`${PREFIX}/${waiting}/manifest.json.tsr-pending`);
    expect(stored).not.toContain(`${PREFIX}/${waiting}/manifest.json.tsr`);
  });

  it("the next run asks again and adds the token, locked; verification and the Records then say when it was certified, with the TSA gone", async () => {
    expect(waiting).not.toBe("");
    const next = await npm(captureOf("--kind", "scheduled"), storeEnv());
    expect(next.status, next.output).toBe(0);
    expect(next.output).toMatch(new RegExp(`records:capture: ${waiting}'s time is now certified by CN=Demo TSA \\(at \\d{4}-`));
    const token = `${PREFIX}/${waiting}/manifest.json.tsr`;
    expect(await keys(LOCKED)).toContain(token);
    const head = await s3.send(new HeadObjectCommand({ Bucket: LOCKED, Key: token }));
    expect(head.ObjectLockMode).toBe("COMPLIANCE");
    const verified = await npm(["records:verify", "--", "--store", waiting], storeEnv());
    expect(verified.status, verified.output).toBe(0);
    expect(verified.output).toMatch(
      /Trusted time: A Time Stamp Authority \(CN=Demo TSA\) signed this manifest's hash on .*, later than the capture/,
    );

    // The Records in the studio: the TSA is not needed to read them (its tokens are checked against its CA).
    const caPem = tsa.caPem;
    Object.assign(process.env, storeEnv(), { ARCHIVE_TSA_CA: caPem });
    await tsa.stop();
    const studio = await studioOnThrowawayClone();
    try {
      // The first look verifies every capture in the store; meanwhile the page says how far it is and loads itself again.
      let page = "";
      await expect
        .poll(
          async () => {
            const answer = await fetch(`${studio.origin}/admin/records`, { headers: { Accept: "text/html" } });
            page = await answer.text();
            return answer.status === 200 && !page.includes("data-building");
          },
          { timeout: 120_000, interval: 1_000 },
        )
        .toBe(true);
      const when = select(`[data-capture="${waiting}"] [data-time-source]`, parseHtml(page));
      expect(when?.properties.dataTimeSource).toBe("certified-later");
      expect(toText(when!).replace(/\s+/g, " ")).toMatch(
        /time from the capturing machine's clock, certified by the Time Stamp Authority on \d{1,2} \w+ \d{4}, \d\d:\d\d:\d\d UTC/,
      );
      expect(page).toContain(`data-capture="${capture}"`);
    } finally {
      await studio.stop();
    }
  });
});

/** A TCP relay to `target` on loopback, closed (its connections cut) on demand: the store's network going away. */
async function tcpRelay(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await listenOnLoopback(server);
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      (closed ??= new Promise<void>((done) => {
        server.close(() => done());
        for (const socket of sockets) socket.destroy();
      })),
  };
}
