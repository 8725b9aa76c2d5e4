/**
 * The archive store: where captures are kept, one interface for two places. `ARCHIVE_STORE` is a folder
 * (default `archive/` in the project: a laptop, the demo) or `s3://bucket/prefix` (production: S3 with
 * Object Lock, or any S3-compatible store through `AWS_ENDPOINT_URL`; s3-store.ts). A capture is a
 * folder (or key prefix) named by its UTC time (manifest.ts `folderName`); its files are written once,
 * the manifest last, and never overwritten: a capture without its manifest is incomplete.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { CAPTURE_NAME, filesUnder, MANIFEST } from "./manifest.ts";
import type { CaptureSource } from "./verify.ts";

/** A stored file of a capture: its path inside the capture, its size, and what changes when it is rewritten. */
export interface StoredFile {
  path: string;
  bytes: number;
  /** Folder: size and modification time; S3: ETag and version id. Equal fingerprints mean nothing was rewritten. */
  fingerprint: string;
}

/** Object Lock as read back from the store for one object (S3 HeadObject). */
export interface Retention {
  mode: string | undefined;
  retainUntil: Date | undefined;
}

export interface WriteOptions {
  /** Called after each file is stored (and, on S3, read back): progress for the terminal. */
  onFile?(path: string): void;
}

export interface ArchiveStore {
  /** How the store is named to people: "the folder archive/" or "s3://bucket/prefix". */
  readonly label: string;
  readonly kind: "folder" | "s3";
  /** Whether what is stored is write-once (S3 Object Lock); a folder is not, and the records say so. */
  readonly writeOnce: boolean;
  /**
   * Checks that the store can be used before anything is written: the folder can be made; the bucket
   * answers and has Object Lock enabled. Throws a StoreError with one sentence otherwise.
   */
  check(): Promise<void>;
  /** Every capture's name, sorted (the names alone: cheap even for years of captures). */
  names(): Promise<string[]>;
  /** Every capture's name with its files, sorted by name and path (one listing of the whole store, or of one capture). */
  list(capture?: string): Promise<Map<string, StoredFile[]>>;
  /** A file's bytes, or undefined when the capture has no such file. */
  read(capture: string, path: string): Promise<Buffer | undefined>;
  /**
   * Writes a new capture from a local folder: refuses a name the store already has (never overwrites),
   * writes every file, then `manifest.json` last. On S3 each object gets COMPLIANCE mode and its
   * retain-until date, both read back before the next file; any failure throws a StoreError naming the
   * file, and what was written stays as an incomplete capture.
   */
  write(capture: string, folder: string, options?: WriteOptions): Promise<void>;
  /** How long each object stays locked (S3 Object Lock), in days; undefined for a folder store. */
  readonly retentionDays?: number;
  /** Object Lock as stored for one file (S3), or undefined for a folder store. */
  retention(capture: string, path: string): Promise<Retention | undefined>;
}

/** The store could not be used: one sentence a person can act on. */
export class StoreError extends Error {}

/** The order a capture is written in: its files, then the manifest's hash and timestamp token, then the manifest itself. */
export function writeOrder(paths: string[]): string[] {
  const rank = (path: string) => (path === MANIFEST ? 2 : path.startsWith(`${MANIFEST}.`) ? 1 : 0);
  return [...paths].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Refuses a capture name that is not a UTC time as `folderName` writes it (nothing else is a capture). */
export function checkCaptureName(name: string) {
  if (!CAPTURE_NAME.test(name)) throw new StoreError(`"${name}" is not a capture's name (a UTC time such as 20260314T120000Z).`);
}

/** A capture's files must stay inside it: no absolute paths, no "..", no empty parts. */
export function checkFilePath(path: string) {
  const parts = path.split("/");
  if (isAbsolute(path) || path.includes("\\") || parts.some((part) => part === "" || part === "." || part === ".."))
    throw new StoreError(`"${path}" is not a file path inside a capture.`);
}

/** The folder store: captures as folders under one folder. Not write-once: the records say so. */
export class FolderStore implements ArchiveStore {
  readonly kind = "folder";
  readonly writeOnce = false;
  readonly root: string;
  readonly label: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.label = `the folder ${root}`;
  }

  async check() {
    try {
      mkdirSync(this.root, { recursive: true });
    } catch (error) {
      throw new StoreError(`The archive store ${this.root} cannot be made: ${(error as Error).message}.`, { cause: error });
    }
    if (!statSync(this.root).isDirectory()) throw new StoreError(`The archive store ${this.root} is not a folder.`);
  }

  async names() {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && CAPTURE_NAME.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  }

  async list(capture?: string) {
    const captures = new Map<string, StoredFile[]>();
    if (!existsSync(this.root)) return captures;
    const names = capture ? [capture] : await this.names();
    for (const name of names.sort()) {
      const folder = join(this.root, name);
      if (!existsSync(folder) || !statSync(folder).isDirectory()) continue;
      // The change time too: a file rewritten and its modification time set back still shows.
      const files = filesUnder(folder).map((path) => {
        const stat = statSync(join(folder, path));
        return { path, bytes: stat.size, fingerprint: `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}` };
      });
      if (files.length) captures.set(name, files);
    }
    return captures;
  }

  async read(capture: string, path: string) {
    checkCaptureName(capture);
    checkFilePath(path);
    const file = join(this.root, capture, path);
    return existsSync(file) && statSync(file).isFile() ? readFileSync(file) : undefined;
  }

  async write(capture: string, folder: string, options: WriteOptions = {}) {
    checkCaptureName(capture);
    const target = join(this.root, capture);
    if (existsSync(target)) throw new StoreError(`The store already has a capture named ${capture}; nothing was overwritten.`);
    mkdirSync(target, { recursive: true });
    for (const path of writeOrder(filesUnder(folder))) {
      checkFilePath(path);
      const destination = join(target, path);
      mkdirSync(dirname(destination), { recursive: true });
      // Written beside, then renamed: a file is never seen half-written.
      const partial = `${destination}.partial`;
      try {
        writeFileSync(partial, readFileSync(join(folder, path)), { flag: "wx" });
        renameSync(partial, destination);
      } catch (error) {
        rmSync(partial, { force: true });
        throw new StoreError(`Writing ${capture}/${path} to ${this.label} failed: ${(error as Error).message}.`, { cause: error });
      }
      options.onFile?.(path);
    }
  }

  async retention() {
    return undefined;
  }
}

/** The store `ARCHIVE_STORE` names: `s3://bucket/prefix`, or a folder (relative to `base`); `archive/` by default. */
export async function openStore(spec: string | undefined, base: string): Promise<ArchiveStore> {
  const value = spec?.trim() || "archive";
  if (/^s3:\/\//i.test(value)) {
    const { S3Store } = await import("./s3-store.ts");
    return S3Store.fromUrl(value);
  }
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(value)) throw new StoreError(`ARCHIVE_STORE must be a folder or s3://bucket/prefix, not "${value}".`);
  return new FolderStore(isAbsolute(value) ? value : join(base, value));
}

/** One capture of a store, for `verifyCapture`. */
export function storeSource(store: ArchiveStore, capture: string, files: StoredFile[]): CaptureSource {
  return {
    files: async () => files,
    read: (path) => store.read(capture, path),
    ...(store.writeOnce ? { retention: (path: string) => store.retention(capture, path) } : {}),
  };
}

/** A capture's folder on this machine (as `npm run archive` stages it), for `verifyCapture`. */
export function folderSource(folder: string): CaptureSource {
  return {
    files: async () => filesUnder(folder).map((path) => ({ path, bytes: statSync(join(folder, path)).size })),
    read: async (path) => {
      checkFilePath(path);
      const file = join(folder, path);
      return existsSync(file) ? readFileSync(file) : undefined;
    },
  };
}
