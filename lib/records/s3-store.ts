/**
 * The archive store on S3 with Object Lock: what makes the records write-once (SEA Rule 17a-4(f)). The
 * bucket's word is not taken for it: a bucket without Object Lock is refused before anything is written,
 * and every object's COMPLIANCE mode and retain-until date are read back before the next file, because
 * some S3-compatible servers accept a retention they do not keep. Works with any S3-compatible server
 * through AWS_ENDPOINT_URL (path-style addressing, which most of them need).
 */
import { readFileSync } from "node:fs";
import { extname, join } from "node:path";
import {
  GetObjectCommand,
  GetObjectLockConfigurationCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { CAPTURE_NAME, filesUnder, MANIFEST } from "./manifest.ts";
import {
  checkCaptureName,
  checkFilePath,
  StoreError,
  writeOrder,
  type ArchiveStore,
  type Retention,
  type StoredFile,
  type WriteOptions,
} from "./store-rules.ts";

/** Three years and a day: SEA Rule 17a-4(b)(4)'s three years, leap day included. */
export const DEFAULT_RETENTION_DAYS = 1096;
const DAY_MS = 86_400_000;
/** Retain-until dates are kept to the second by some servers. */
const CLOCK_ROUNDING_MS = 1_000;

const CONTENT_TYPES: Record<string, string> = {
  ".json": "application/json",
  ".pdf": "application/pdf",
  ".gz": "application/gzip",
  ".warc": "application/warc",
  ".tsr": "application/timestamp-reply",
  ".sha256": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".png": "image/png",
};

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix without leading or trailing "/"; "" for the bucket's top level. */
  prefix: string;
  retentionDays: number;
  client: S3Client;
  /** The S3-compatible endpoint, when not AWS: named when it cannot be reached. */
  endpoint?: string;
}

/** One clause saying why a request failed, from what the SDK threw. */
function reason(error: unknown, store: S3Store): string {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  if (code && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/.test(code))
    return `nothing answers at ${store.endpoint ?? "the AWS endpoint"} (${code})`;
  if (name === "CredentialsProviderError")
    return "no AWS credentials were found (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile)";
  if (name === "NoSuchBucket") return `the bucket ${store.bucket} does not exist`;
  if (name === "AccessDenied" || name === "Forbidden") return `access was denied (${name})`;
  if (name === "InvalidAccessKeyId" || name === "SignatureDoesNotMatch") return `the credentials were refused (${name})`;
  const first = (message ?? "").split("\n")[0]!.replace(/\.$/, "");
  if (!name || name === "Error") return first || String(error);
  return first && first !== name ? `${name}: ${first}` : name;
}

const isNotFound = (error: unknown) => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
};

export class S3Store implements ArchiveStore {
  readonly kind = "s3";
  readonly writeOnce = true;
  readonly label: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly retentionDays: number;
  readonly endpoint: string | undefined;
  readonly client: S3Client;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.retentionDays = options.retentionDays;
    this.client = options.client;
    this.endpoint = options.endpoint;
    this.label = `s3://${this.bucket}${this.prefix ? `/${this.prefix}` : ""}`;
  }

  /** `s3://bucket/optional/prefix`, with the SDK configured from `env` (AWS_ENDPOINT_URL, AWS_REGION, credentials). */
  static fromUrl(url: string, env: NodeJS.ProcessEnv = process.env): S3Store {
    const match = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(url.trim());
    const bucket = match?.[1] ?? "";
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      throw new StoreError(`ARCHIVE_STORE must name a bucket as s3://bucket/prefix, and "${url}" does not.`);
    const prefix = match![2]!.split("/").filter(Boolean).join("/");
    const days = env.ARCHIVE_RETENTION_DAYS?.trim() || String(DEFAULT_RETENTION_DAYS);
    if (!/^\d+$/.test(days) || Number(days) <= 0)
      throw new StoreError(`ARCHIVE_RETENTION_DAYS must be a whole number of days above 0, not "${env.ARCHIVE_RETENTION_DAYS}".`);
    const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
    const config: S3ClientConfig = {
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
      // S3-compatible servers mostly answer at one host, the bucket in the path.
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    };
    // Otherwise the SDK's own chain: the process's environment, profiles, SSO, instance roles.
    if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY)
      config.credentials = {
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
        ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
      };
    return new S3Store({ bucket, prefix, retentionDays: Number(days), client: new S3Client(config), endpoint });
  }

  /** Every key of the store starts with this: the prefix and a "/", or nothing. */
  private get base() {
    return this.prefix ? `${this.prefix}/` : "";
  }

  private key(capture: string, path = "") {
    return `${this.base}${capture}/${path}`;
  }

  async check() {
    let enabled: string | undefined;
    try {
      const answer = await this.client.send(new GetObjectLockConfigurationCommand({ Bucket: this.bucket }));
      enabled = answer.ObjectLockConfiguration?.ObjectLockEnabled;
    } catch (error) {
      if ((error as Error).name !== "ObjectLockConfigurationNotFoundError")
        throw new StoreError(`${this.label} cannot be used: ${reason(error, this)}.`, { cause: error });
    }
    if (enabled !== "Enabled")
      throw new StoreError(
        `${this.label} has no Object Lock: the archive is kept only in a bucket created with Object Lock, so nothing was written.`,
      );
  }

  async names() {
    const names: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.base, Delimiter: "/", ContinuationToken: token }),
        );
        for (const { Prefix } of page.CommonPrefixes ?? []) {
          const name = Prefix?.slice(this.base.length).replace(/\/$/, "") ?? "";
          if (CAPTURE_NAME.test(name)) names.push(name);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw new StoreError(`Listing ${this.label} failed: ${reason(error, this)}.`, { cause: error });
    }
    return names.sort();
  }

  async list(capture?: string) {
    const captures = new Map<string, StoredFile[]>();
    if (capture) checkCaptureName(capture);
    const base = this.base;
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: capture ? `${base}${capture}/` : base, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const [name, ...rest] = object.Key!.slice(base.length).split("/");
          const path = rest.join("/");
          if (!CAPTURE_NAME.test(name!) || !path || rest.some((part) => !part)) continue;
          const files = captures.get(name!) ?? [];
          const fingerprint = `${object.ETag}:${object.LastModified?.toISOString()}:${object.Size}`;
          files.push({ path, bytes: object.Size ?? 0, fingerprint });
          captures.set(name!, files);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw new StoreError(`Listing ${this.label} failed: ${reason(error, this)}.`, { cause: error });
    }
    for (const files of captures.values()) files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return new Map([...captures].sort(([a], [b]) => a.localeCompare(b)));
  }

  async read(capture: string, path: string) {
    checkCaptureName(capture);
    checkFilePath(path);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(capture, path) }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw new StoreError(`Reading ${capture}/${path} from ${this.label} failed: ${reason(error, this)}.`, { cause: error });
    }
  }

  async write(capture: string, folder: string, options: WriteOptions = {}) {
    checkCaptureName(capture);
    // Versions too: a capture hidden behind a delete marker still holds its locked versions.
    let taken: boolean;
    try {
      const found = await this.client.send(new ListObjectVersionsCommand({ Bucket: this.bucket, Prefix: this.key(capture), MaxKeys: 1 }));
      taken = Boolean(found.Versions?.length || found.DeleteMarkers?.length);
    } catch (error) {
      throw new StoreError(`Looking for ${capture} in ${this.label} failed: ${reason(error, this)}.`, { cause: error });
    }
    if (taken) throw new StoreError(`${this.label} already has a capture named ${capture}; nothing was overwritten.`);

    // One date for the whole capture, to the second (as the servers keep it).
    const retainUntil = this.#retainUntil();
    for (const path of writeOrder(filesUnder(folder))) {
      checkFilePath(path);
      await this.#put(capture, path, () => readFileSync(join(folder, path)), retainUntil);
      options.onFile?.(path);
    }
  }

  #retainUntil() {
    return new Date(Math.ceil((Date.now() + this.retentionDays * DAY_MS) / 1000) * 1000);
  }

  /** One object, written once with COMPLIANCE retention until `retainUntil`, its lock read back. */
  async #put(capture: string, path: string, body: () => Uint8Array, retainUntil: Date) {
    const Key = this.key(capture, path);
    let kept: Retention;
    try {
      const put = await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: body(),
          ContentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
          ChecksumAlgorithm: "SHA256",
          ObjectLockMode: "COMPLIANCE",
          ObjectLockRetainUntilDate: retainUntil,
          // Honoured by AWS S3 (a race with another writer fails); some servers ignore it, hence the listings before.
          IfNoneMatch: "*",
        }),
      );
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key, VersionId: put.VersionId }));
      kept = { mode: head.ObjectLockMode, retainUntil: head.ObjectLockRetainUntilDate };
    } catch (error) {
      throw new StoreError(`Writing ${capture}/${path} to ${this.label} failed: ${reason(error, this)}.`, { cause: error });
    }
    if (kept.mode !== "COMPLIANCE" || !kept.retainUntil || kept.retainUntil.getTime() < retainUntil.getTime() - CLOCK_ROUNDING_MS)
      throw new StoreError(
        `${this.label} kept ${Key} with Object Lock ${kept.mode ?? "none"} until ${kept.retainUntil?.toISOString() ?? "no date"}, not COMPLIANCE until ${retainUntil.toISOString()}, so the capture stops here.`,
      );
  }

  async addFile(capture: string, path: string, bytes: Uint8Array) {
    checkCaptureName(capture);
    checkFilePath(path);
    let versions: string[];
    try {
      const found = await this.client.send(new ListObjectVersionsCommand({ Bucket: this.bucket, Prefix: this.key(capture) }));
      versions = [...(found.Versions ?? []), ...(found.DeleteMarkers ?? [])].map((v) => v.Key ?? "");
    } catch (error) {
      throw new StoreError(`Looking for ${capture} in ${this.label} failed: ${reason(error, this)}.`, { cause: error });
    }
    if (!versions.includes(this.key(capture, MANIFEST))) throw new StoreError(`${this.label} has no complete capture named ${capture}.`);
    if (versions.includes(this.key(capture, path)))
      throw new StoreError(`${capture}/${path} is in ${this.label} already; nothing was overwritten.`);
    await this.#put(capture, path, () => bytes, this.#retainUntil());
  }

  async retention(capture: string, path: string): Promise<Retention> {
    checkCaptureName(capture);
    checkFilePath(path);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(capture, path) }));
      return { mode: head.ObjectLockMode, retainUntil: head.ObjectLockRetainUntilDate };
    } catch (error) {
      if (isNotFound(error)) throw new StoreError(`${this.label} has no ${capture}/${path}.`, { cause: error });
      throw new StoreError(`Reading the retention of ${capture}/${path} in ${this.label} failed: ${reason(error, this)}.`, {
        cause: error,
      });
    }
  }
}
