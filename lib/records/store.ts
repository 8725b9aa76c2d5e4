/**
 * The records store: where captures are kept, one interface for two places. `ARCHIVE_STORE` is a folder
 * (default `archive/` in the project: a laptop, the demo) or `s3://bucket/prefix` (production: S3 with
 * Object Lock, or any S3-compatible store through `AWS_ENDPOINT_URL`; s3-store.ts). A capture is a
 * folder (or key prefix) named by its UTC time (manifest.ts `folderName`); its files are written once,
 * the manifest last, and never overwritten: a capture without its manifest is incomplete.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { CAPTURE_NAME, filesUnder, MANIFEST } from "./manifest.ts";
import {
  checkCaptureName,
  checkFilePath,
  StoreError,
  writeOrder,
  type ArchiveStore,
  type CaptureSource,
  type Retention,
  type StoredFile,
  type WriteOptions,
} from "./store-rules.ts";

export { checkCaptureName, checkFilePath, StoreError, writeOrder };
export type { ArchiveStore, CaptureSource, Retention, StoredFile, WriteOptions };

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
      throw new StoreError(`The records store ${this.root} cannot be made: ${(error as Error).message}.`, { cause: error });
    }
    if (!statSync(this.root).isDirectory()) throw new StoreError(`The records store ${this.root} is not a folder.`);
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

  async addFile(capture: string, path: string, bytes: Uint8Array) {
    checkCaptureName(capture);
    checkFilePath(path);
    const target = join(this.root, capture);
    if (!existsSync(join(target, MANIFEST))) throw new StoreError(`${this.label} has no complete capture named ${capture}.`);
    const destination = join(target, path);
    if (existsSync(destination)) throw new StoreError(`${capture}/${path} is in ${this.label} already; nothing was overwritten.`);
    const partial = `${destination}.partial`;
    try {
      mkdirSync(dirname(destination), { recursive: true });
      writeFileSync(partial, bytes, { flag: "wx" });
      renameSync(partial, destination);
    } catch (error) {
      rmSync(partial, { force: true });
      throw new StoreError(`Writing ${capture}/${path} to ${this.label} failed: ${(error as Error).message}.`, { cause: error });
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

/** A capture's folder on this machine (as `npm run records:capture` stages it), for `verifyCapture`. */
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
