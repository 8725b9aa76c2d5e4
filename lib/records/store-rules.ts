/**
 * What every records store is and the checks each applies (store.ts's folder store, s3-store.ts's S3
 * store), in one module both import: the interface, the refusal, the write order, the names and paths a
 * capture may have, and read access to one capture for verify.ts.
 */
import { isAbsolute } from "node:path";
import { CAPTURE_NAME, MANIFEST } from "./manifest.ts";

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
  /**
   * Adds one file to a capture the store has (its manifest there): a timestamp token that came later.
   * Refuses a file the capture has already (never overwrites); on S3 it is locked as the rest.
   */
  addFile(capture: string, path: string, bytes: Uint8Array): Promise<void>;
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

/** Read access to one capture, wherever it is kept. */
export interface CaptureSource {
  /** The capture's files (paths inside it) with their sizes. */
  files(): Promise<Array<{ path: string; bytes: number }>>;
  read(path: string): Promise<Buffer | undefined>;
  /** Object Lock read back for a file (S3); undefined where the store has none. */
  retention?(path: string): Promise<Retention | undefined>;
}
