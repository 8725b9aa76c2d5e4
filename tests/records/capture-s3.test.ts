/**
 * The deploy job's path, run here for real: `npm run records:capture` into S3 with Object Lock (Ceph's radosgw,
 * testing/ceph.ts) with a Time Stamp Authority on loopback (testing/demo/tsa.ts), then
 * `npm run records:verify -- --store` reading it back: every object in COMPLIANCE mode until the
 * retention asked for, the token checked. And the faults: a bucket without Object Lock, an unreachable
 * store or TSA (one sentence, non-zero, nothing stored), an object rewritten or hidden in the store
 * after the fact (named). Without radosgw the file is skipped locally; with CI=true it fails.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
import { osFreePort } from "../../lib/ports.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { startDemoTsa, type DemoTsa } from "../../testing/demo/tsa.ts";
import { startCephS3, type CephS3 } from "../../testing/ceph.ts";
import { projectRoot, requireBuild } from "../server/support.ts";

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

// Without Vitest's NODE_ENV=test: a build started from here would otherwise bundle React's development build.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
/** An npm script as the deploy job runs it (asynchronously: the TSA in this process must keep answering). */
function npm(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", ...args], { cwd: projectRoot, env: { ...baseEnv, ...env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
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
  ...extra,
});
const keys = async (bucket: string) =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!).sort();

beforeAll(async () => {
  if (skip) return;
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), "archive-s3-"));
  [ceph, tsa] = await Promise.all([startCephS3(), startDemoTsa()]);
  s3 = new S3Client({ endpoint: ceph.endpoint, region: ceph.region, credentials: ceph, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: LOCKED, ObjectLockEnabledForBucket: true }));
  await s3.send(new CreateBucketCommand({ Bucket: PLAIN }));
  first = await npm(["records:capture", "--", "--kind", "deploy"], storeEnv());
  capture = /stored (\d{8}T\d{6}Z) in s3:/.exec(first.output)?.[1] ?? "";
}, 240_000);
afterAll(async () => {
  s3?.destroy();
  await Promise.all([ceph?.stop(), tsa?.stop()]);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(skip)("npm run records:capture into S3 with Object Lock", () => {
  it("stores the capture, the manifest last, every object locked in COMPLIANCE mode for the retention asked for", async () => {
    expect(first.status, first.output).toBe(0);
    expect(first.output).toMatch(/✓ Trusted time: A Time Stamp Authority \(CN=Demo TSA\) signed this manifest's hash on/);
    expect(first.output).toMatch(/✓ Write-once storage: Every object is locked in COMPLIANCE mode until/);
    const stored = await keys(LOCKED);
    expect(stored).toContain(`${PREFIX}/${capture}/manifest.json`);
    expect(stored).toContain(`${PREFIX}/${capture}/manifest.json.tsr`);
    expect(stored.filter((key) => key.endsWith(".pdf")).length).toBeGreaterThan(5);
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

  it("records:verify -- --store reads it back as intact, token and locks included", async () => {
    const verified = await npm(["records:verify", "--", "--store", capture], storeEnv());
    expect(verified.status, verified.output).toBe(0);
    expect(verified.output).toContain(`✓ ${capture}`);
    expect(verified.output).toContain("✓ Write-once storage");
  });

  it("refuses a bucket without Object Lock before capturing, in one sentence, writing nothing", async () => {
    const refused = await npm(["records:capture"], storeEnv(PLAIN));
    expect(refused.status).not.toBe(0);
    expect(refused.output.trim().split("\n").at(-1)).toMatch(/^records:capture: s3:\/\/no-object-lock\/records has no Object Lock/);
    expect(refused.output).not.toContain("capturing");
    expect(await keys(PLAIN)).toEqual([]);
  });

  it("says in one sentence that the store or the TSA cannot be reached, and stores nothing", async () => {
    const closed = `http://127.0.0.1:${await osFreePort()}`;
    const noStore = await npm(["records:capture"], storeEnv(LOCKED, { AWS_ENDPOINT_URL: closed }));
    expect(noStore.status).not.toBe(0);
    expect(noStore.output.trim().split("\n").at(-1)).toMatch(/^records:capture: .*s3:\/\/site-archive\/records.*\.$/);
    const before = await keys(LOCKED);
    const noTsa = await npm(["records:capture"], storeEnv(LOCKED, { ARCHIVE_TSA_URL: closed }));
    expect(noTsa.status).not.toBe(0);
    expect(noTsa.output.trim().split("\n").at(-1)).toMatch(
      /^records:capture: the Time Stamp Authority at http:\/\/127\.0\.0\.1:\d+ could not be reached/,
    );
    expect(await keys(LOCKED)).toEqual(before);
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
