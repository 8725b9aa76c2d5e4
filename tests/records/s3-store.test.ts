/**
 * The records store on S3 (lib/records/s3-store.ts) against a real S3 with real Object Lock: Ceph's
 * radosgw, a one-node cluster in memory started for this file (testing/ceph.ts). Why radosgw:
 * s3rver, the S3 server on npm, has no Object Lock at all, and emulators elsewhere have accepted
 * COMPLIANCE retention without enforcing it. So the project proves what it wrote by reading it back
 * (mode and retain-until of every object), and a server refusing a delete is the server's behaviour,
 * shown here, never the proof.
 * Without radosgw the file is skipped locally (one line names the apt command); with CI=true it fails.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectRetentionCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectRetentionCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { filesUnder, folderName } from "../../lib/records/manifest.ts";
import { osFreePort } from "../../lib/ports.ts";
import { DEFAULT_RETENTION_DAYS, S3Store } from "../../lib/records/s3-store.ts";
import { openStore, StoreError, writeOrder, type ArchiveStore } from "../../lib/records/store.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { startCephS3, type CephS3 } from "../../testing/ceph.ts";

const skip = !available("radosgw") && !isCI();

const DAY = 86_400_000;
const LOCKED = "records-locked";
const PLAIN = "records-plain";

let ceph: CephS3;
let admin: S3Client;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "s3-store-"));
  if (skip) return;
  ceph = await startCephS3();
  admin = new S3Client({ endpoint: ceph.endpoint, region: ceph.region, credentials: ceph, forcePathStyle: true });
  await admin.send(new CreateBucketCommand({ Bucket: LOCKED, ObjectLockEnabledForBucket: true }));
  await admin.send(new CreateBucketCommand({ Bucket: PLAIN }));
}, 180_000);
afterAll(async () => {
  admin?.destroy();
  await ceph?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 60_000);

/** The environment production sets, pointed at the test cluster. */
const envFor = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  AWS_ENDPOINT_URL: ceph.endpoint,
  AWS_REGION: ceph.region,
  AWS_ACCESS_KEY_ID: ceph.accessKeyId,
  AWS_SECRET_ACCESS_KEY: ceph.secretAccessKey,
  ...extra,
});

let captures = 0;
/** A capture folder as `npm run records:capture` leaves it (a few small files, one binary), and a fresh name for it. */
function captureFolder(text = "original") {
  const folder = join(scratch, `capture-${++captures}`);
  mkdirSync(join(folder, "pdf"), { recursive: true });
  writeFileSync(join(folder, "manifest.json"), JSON.stringify({ format: "site-archive/2", text }));
  writeFileSync(join(folder, "manifest.json.sha256"), `${"0".repeat(64)}  manifest.json\n`);
  writeFileSync(join(folder, "site.warc.gz"), Buffer.from([0x1f, 0x8b, 8, 0, ...Buffer.from(text)]));
  writeFileSync(join(folder, "pdf/x.pdf"), Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from([0, 255, 128, 10]), Buffer.from(text)]));
  const name = folderName(new Date(Date.UTC(2026, 2, 14, 12, 0, captures)));
  return { folder, name, files: filesUnder(folder) };
}

/** How `npm run records:capture` uses a store: check, then write. */
async function archiveTo(store: ArchiveStore, name: string, folder: string) {
  await store.check();
  await store.write(name, folder);
}

describe.skipIf(skip)("the S3 store on radosgw with Object Lock", () => {
  it("writes a capture, lists its files and reads them back byte for byte, manifest.json last", async () => {
    const store = S3Store.fromUrl(`s3://${LOCKED}/records`, envFor());
    await store.check();
    const { folder, name, files } = captureFolder();
    const written: string[] = [];
    await store.write(name, folder, { onFile: (path) => written.push(path) });

    expect(written).toEqual(writeOrder(files));
    expect(written.at(-1)).toBe("manifest.json");
    const listed = (await store.list()).get(name)!;
    expect(listed.map((file) => file.path)).toEqual(files);
    for (const file of listed) {
      const local = readFileSync(join(folder, file.path));
      expect(file.bytes).toBe(local.length);
      expect((await store.read(name, file.path))!.equals(local), file.path).toBe(true);
    }
    expect(await store.read(name, "pdf/missing.pdf")).toBeUndefined();
    // The server's own clock agrees: nothing was stored after the manifest.
    const modified = await Promise.all(
      files.map(async (path) =>
        (await admin.send(new HeadObjectCommand({ Bucket: LOCKED, Key: `records/${name}/${path}` }))).LastModified!.getTime(),
      ),
    );
    const manifestTime = modified[files.indexOf("manifest.json")]!;
    for (const time of modified) expect(time).toBeLessThanOrEqual(manifestTime);
  });

  it("locks every object in COMPLIANCE mode until now + ARCHIVE_RETENTION_DAYS, as read back", async () => {
    const store = S3Store.fromUrl(`s3://${LOCKED}/records`, envFor({ ARCHIVE_RETENTION_DAYS: "3" }));
    const { folder, name, files } = captureFolder();
    const before = Date.now();
    await store.write(name, folder);
    const after = Date.now();
    for (const path of files) {
      const { mode, retainUntil } = (await store.retention(name, path))!;
      expect(mode, path).toBe("COMPLIANCE");
      expect(retainUntil!.getTime()).toBeGreaterThanOrEqual(before + 3 * DAY - 1_000);
      expect(retainUntil!.getTime()).toBeLessThanOrEqual(after + 3 * DAY + 1_000);
    }
    // The same through the server's retention API.
    const retention = await admin.send(new GetObjectRetentionCommand({ Bucket: LOCKED, Key: `records/${name}/manifest.json` }));
    expect(retention.Retention?.Mode).toBe("COMPLIANCE");
  });

  it("refuses a capture name it already has, and the stored bytes stay as they were", async () => {
    const store = S3Store.fromUrl(`s3://${LOCKED}/records`, envFor({ ARCHIVE_RETENTION_DAYS: "1" }));
    const first = captureFolder("first");
    await store.write(first.name, first.folder);
    const stored = (await store.list()).get(first.name);
    const again = captureFolder("second, different bytes");

    await expect(store.write(first.name, again.folder)).rejects.toThrow(
      new StoreError(`s3://${LOCKED}/records already has a capture named ${first.name}; nothing was overwritten.`),
    );
    expect((await store.list()).get(first.name)).toEqual(stored);
    const manifest = await store.read(first.name, "manifest.json");
    expect(JSON.parse(manifest!.toString("utf8")).text).toBe("first");
    const versions = await admin.send(new ListObjectVersionsCommand({ Bucket: LOCKED, Prefix: `records/${first.name}/` }));
    expect(versions.Versions).toHaveLength(first.files.length);
  });

  it("keeps what was written when a write fails, as a capture without manifest.json", async () => {
    const store = S3Store.fromUrl(`s3://${LOCKED}/records`, envFor({ ARCHIVE_RETENTION_DAYS: "1" }));
    const { folder, name } = captureFolder();
    // The manifest disappears from the folder once the first file is stored.
    const onFile = () => rmSync(join(folder, "manifest.json"), { force: true });
    await expect(store.write(name, folder, { onFile })).rejects.toThrow(
      new RegExp(`^Writing ${name}/manifest\\.json to s3://${LOCKED}/records failed: ENOENT`),
    );
    const listed = (await store.list()).get(name)!.map((file) => file.path);
    expect(listed).toEqual(["manifest.json.sha256", "pdf/x.pdf", "site.warc.gz"]);
  });

  it("refuses a bucket without Object Lock in one sentence, and nothing is written", async () => {
    const store = S3Store.fromUrl(`s3://${PLAIN}/records`, envFor());
    const write = vi.spyOn(store, "write");
    const { folder, name } = captureFolder();
    await expect(archiveTo(store, name, folder)).rejects.toThrow(
      new StoreError(
        `s3://${PLAIN}/records has no Object Lock: the archive is kept only in a bucket created with Object Lock, so nothing was written.`,
      ),
    );
    expect(write).not.toHaveBeenCalled();
    expect((await admin.send(new ListObjectsV2Command({ Bucket: PLAIN }))).KeyCount ?? 0).toBe(0);
  });

  it("names the store in one sentence when it cannot be reached, has no such bucket, or refuses the keys", async () => {
    const closed = await osFreePort();
    const unreachable = S3Store.fromUrl(`s3://${LOCKED}`, envFor({ AWS_ENDPOINT_URL: `http://127.0.0.1:${closed}` }));
    await expect(unreachable.check()).rejects.toThrow(
      new StoreError(`s3://${LOCKED} cannot be used: nothing answers at http://127.0.0.1:${closed} (ECONNREFUSED).`),
    );
    await expect(unreachable.list()).rejects.toThrow(/^Listing s3:\/\/records-locked failed: nothing answers at .* \(ECONNREFUSED\)\.$/);

    await expect(S3Store.fromUrl("s3://no-such-bucket/records", envFor()).check()).rejects.toThrow(
      new StoreError("s3://no-such-bucket/records cannot be used: the bucket no-such-bucket does not exist."),
    );
    await expect(S3Store.fromUrl(`s3://${LOCKED}`, envFor({ AWS_ACCESS_KEY_ID: "NOSUCHKEY" })).check()).rejects.toThrow(
      new StoreError(`s3://${LOCKED} cannot be used: the credentials were refused (InvalidAccessKeyId).`),
    );
  });

  it("keeps stores with different prefixes in one bucket apart", async () => {
    const teamA = S3Store.fromUrl(`s3://${LOCKED}/team-a`, envFor({ ARCHIVE_RETENTION_DAYS: "1" }));
    const teamB = S3Store.fromUrl(`s3://${LOCKED}/team-b/`, envFor({ ARCHIVE_RETENTION_DAYS: "1" }));
    const a = captureFolder("team a");
    const b = captureFolder("team b");
    await teamA.write(a.name, a.folder);
    await teamB.write(b.name, b.folder);
    // The same name in the other prefix is another capture.
    await teamB.write(a.name, b.folder);

    expect([...(await teamA.list()).keys()]).toEqual([a.name]);
    expect([...(await teamB.list()).keys()]).toEqual([a.name, b.name].sort());
    expect(await teamA.read(b.name, "manifest.json")).toBeUndefined();
    expect(JSON.parse((await teamB.read(a.name, "manifest.json"))!.toString("utf8")).text).toBe("team b");
    // The bucket's top level holds prefixes, not captures.
    expect((await S3Store.fromUrl(`s3://${LOCKED}`, envFor()).list()).size).toBe(0);
  });

  it("the server refuses deleting a locked version or shortening its retention (its behaviour; the proof is the read-back)", async () => {
    const store = S3Store.fromUrl(`s3://${LOCKED}/records`, envFor({ ARCHIVE_RETENTION_DAYS: "2" }));
    const { folder, name } = captureFolder();
    await store.write(name, folder);
    const Key = `records/${name}/pdf/x.pdf`;
    const { VersionId, ObjectLockRetainUntilDate } = await admin.send(new HeadObjectCommand({ Bucket: LOCKED, Key }));

    await expect(admin.send(new DeleteObjectCommand({ Bucket: LOCKED, Key, VersionId }))).rejects.toMatchObject({ name: "AccessDenied" });
    await expect(
      admin.send(
        new PutObjectRetentionCommand({
          Bucket: LOCKED,
          Key,
          VersionId,
          Retention: { Mode: "COMPLIANCE", RetainUntilDate: new Date(Date.now() + DAY) },
        }),
      ),
    ).rejects.toMatchObject({ name: "AccessDenied" });
    expect(await store.retention(name, "pdf/x.pdf")).toEqual({ mode: "COMPLIANCE", retainUntil: ObjectLockRetainUntilDate });
    expect(await store.read(name, "pdf/x.pdf")).toBeDefined();
  });
});

describe("S3Store.fromUrl", () => {
  it("reads the bucket and the prefix, and names the store by its URL", async () => {
    const store = S3Store.fromUrl("s3://archive-bucket/records/site/", {});
    expect(store).toMatchObject({ bucket: "archive-bucket", prefix: "records/site", label: "s3://archive-bucket/records/site" });
    expect(store).toMatchObject({ kind: "s3", writeOnce: true, retentionDays: DEFAULT_RETENTION_DAYS });
    expect(S3Store.fromUrl("s3://archive-bucket", {})).toMatchObject({ prefix: "", label: "s3://archive-bucket" });
    expect(S3Store.fromUrl("s3://archive-bucket", { ARCHIVE_RETENTION_DAYS: "3" }).retentionDays).toBe(3);
    expect(DEFAULT_RETENTION_DAYS).toBe(1096);
    expect(await openStore("s3://archive-bucket/records", "/nowhere")).toBeInstanceOf(S3Store);
  });

  it.each(["0", "-5", "abc", "1.5", "3 days"])("refuses ARCHIVE_RETENTION_DAYS=%s", (days) => {
    expect(() => S3Store.fromUrl("s3://archive-bucket", { ARCHIVE_RETENTION_DAYS: days })).toThrow(
      new StoreError(`ARCHIVE_RETENTION_DAYS must be a whole number of days above 0, not "${days}".`),
    );
  });

  it.each(["s3://", "s3:///records", "s3://Bad_Bucket/records"])("refuses %s", (url) => {
    expect(() => S3Store.fromUrl(url, {})).toThrow(StoreError);
  });
});

describe("the read-back", () => {
  it("refuses an object the server kept without COMPLIANCE retention, and writes nothing after it", async () => {
    // A server that accepts the lock and keeps none: what the read-back is for.
    const sent: string[] = [];
    const client = {
      send: async (command: { constructor: { name: string }; input: { Key?: string } }) => {
        sent.push(`${command.constructor.name} ${command.input.Key ?? ""}`.trim());
        if (command.constructor.name === "ListObjectVersionsCommand") return {};
        if (command.constructor.name === "PutObjectCommand") return { VersionId: "1" };
        return { ObjectLockMode: undefined, ObjectLockRetainUntilDate: undefined };
      },
    };
    const store = new S3Store({ bucket: "lax", prefix: "", retentionDays: 3, client: client as unknown as S3Client });
    const { folder, name, files } = captureFolder();
    const first = writeOrder(files)[0]!;
    const onFile = vi.fn();
    await expect(store.write(name, folder, { onFile })).rejects.toThrow(
      new RegExp(
        `^s3://lax kept ${name}/${first} with Object Lock none until no date, not COMPLIANCE until .*, so the capture stops here\\.$`,
      ),
    );
    expect(onFile).not.toHaveBeenCalled();
    expect(sent.filter((line) => line.startsWith("PutObjectCommand"))).toEqual([`PutObjectCommand ${name}/${first}`]);
  });
});
