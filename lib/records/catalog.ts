/**
 * The records' index: one entry per capture of the store (its time of record, kind, commit, pages and
 * approvals, and the outcome of its last full verification), read by the timeline, "as of" and the
 * export instead of every manifest on every request. It is derived, never the record: kept in a cache
 * file beside the store, rebuilt when missing, and each capture is verified again whenever its files'
 * fingerprints change (a file rewritten, added or deleted in the store shows at the next look).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256Hex } from "../hash.ts";
import { approvalsAt } from "./approvals.ts";
import {
  approvedHashOf,
  kindOf,
  pageTitle,
  timeOfName,
  type CaptureKind,
  type Manifest,
  type ManifestApproval,
  type ManifestPublished,
} from "./manifest.ts";
import { FolderStore, storeSource, type ArchiveStore, type StoredFile } from "./store.ts";
import { verifyCapture, type CheckLine } from "./verify.ts";

export interface CapturePage {
  path: string;
  /** As people name it ("Privacy Policy"). */
  title: string;
  url: string;
  status: number;
  pdf: string;
  htmlSha256: string;
  textSha256: string;
  approvedSha256: string | null;
}

export interface CaptureEntry {
  name: string;
  fingerprint: string;
  /** False when the capture has no manifest (it never finished); `missing` then says what it has. */
  complete: boolean;
  missing?: string;
  /**
   * The time of record: the TSA's genTime when a valid token made with the capture covers the manifest,
   * else the capturing machine's clock (a token that came later vouches only that the capture existed by then).
   */
  time: string;
  timeSource: "tsa" | "clock";
  /** The TSA could not certify the capture as it was made: "waiting" for its token, or when the token came later certified it. */
  certification?: { waiting: true } | { certifiedAt: string };
  createdAt: string;
  kind: CaptureKind | "unrecorded";
  commit?: string;
  origin?: string;
  manifestSha256?: string;
  /** The WARC's file name inside the capture. */
  warc?: string;
  pages: CapturePage[];
  approvals: ManifestApproval[];
  /** The pages overdue for review on the capture's day, by path (captures since reviews are kept, issue 54). */
  overdue?: string[];
  /** The studio publish the capture's commit is: when it went live, and the scheduled moment (issue 56). */
  published?: ManifestPublished;
  ok: boolean;
  lines: CheckLine[];
  problems: string[];
  checkedAt: string;
}

export interface CatalogOptions {
  /** Where the index is kept (a JSON file); it is rebuilt from the store when missing or unreadable. */
  cacheFile: string;
  /** The TSA's CA certificate (PEM), to check timestamp tokens. */
  tsaCa?: string;
  /** A clone of the site's repository: the approvals of captures whose manifest predates their principal and editors. */
  repo?: string;
}

const VERSION = 7;
const fingerprintOf = (files: StoredFile[]) => sha256Hex(files.map((f) => `${f.path}\t${f.bytes}\t${f.fingerprint}`).join("\n"));

/** The entries sorted by time of record, oldest first. */
const byTime = (entries: CaptureEntry[]) => [...entries].sort((a, b) => a.time.localeCompare(b.time) || a.name.localeCompare(b.name));

export class Catalog {
  readonly store: ArchiveStore;
  readonly #options: CatalogOptions;
  readonly #key: string;
  #entries = new Map<string, CaptureEntry>();
  #loaded = false;
  /** Looks at the store run one at a time (the index is one file): each waits for the one before. */
  #queue: Promise<unknown> = Promise.resolve();
  #waiting?: Promise<CaptureEntry[]>;
  #progress?: { checked: number; total: number };
  #built = false;

  constructor(store: ArchiveStore, options: CatalogOptions) {
    this.store = store;
    this.#options = options;
    // A different store or CA makes every earlier outcome moot.
    this.#key = sha256Hex(`${VERSION}\n${store.label}\n${options.tsaCa ?? ""}`);
  }

  #load() {
    if (this.#loaded) return;
    this.#loaded = true;
    try {
      const saved = JSON.parse(readFileSync(this.#options.cacheFile, "utf8")) as { key: string; entries: CaptureEntry[] };
      if (saved.key === this.#key) {
        this.#entries = new Map(saved.entries.map((e) => [e.name, e]));
        this.#built = true;
      }
    } catch {
      // No index yet, or an unreadable one: rebuilt from the store.
    }
  }

  #save() {
    const file = this.#options.cacheFile;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.partial`, JSON.stringify({ key: this.#key, entries: [...this.#entries.values()] }));
    renameSync(`${file}.partial`, file);
  }

  #serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => (this.#load(), task()));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Verifies the given captures (new, or changed since the last look) and keeps their entries. */
  async #update(stale: Array<{ name: string; files: StoredFile[] }>, gone: string[]) {
    for (const name of gone) this.#entries.delete(name);
    this.#progress = { checked: 0, total: stale.length };
    try {
      for (const { name, files } of stale) {
        this.#entries.set(name, await this.#examine(name, files, fingerprintOf(files)));
        this.#progress.checked++;
      }
    } finally {
      this.#progress = undefined;
    }
    if (stale.length || gone.length || !existsSync(this.#options.cacheFile)) this.#save();
  }

  /** Every capture of the store, oldest first, each verified again if its files changed since the last look (one listing of everything). */
  refresh(): Promise<CaptureEntry[]> {
    // Refreshes asked for while one waits its turn share it.
    this.#waiting ??= this.#serially(async () => {
      this.#waiting = undefined;
      const listed = await this.store.list();
      const stale = [...listed].flatMap(([name, files]) =>
        this.#entries.get(name)?.fingerprint === fingerprintOf(files) ? [] : [{ name, files }],
      );
      await this.#update(
        stale,
        [...this.#entries.keys()].filter((name) => !listed.has(name)),
      );
      this.#built = true;
      return byTime([...this.#entries.values()]);
    });
    return this.#waiting;
  }

  /**
   * Every capture by name (one listing of the names alone: new captures verified, removed ones dropped),
   * and the files of those named looked at again: what a page about one capture needs, without listing
   * every file of three years of captures.
   */
  look(names: string[] = []): Promise<CaptureEntry[]> {
    return this.#serially(async () => {
      const present = new Set(await this.store.names());
      const fresh = [...present].filter((name) => !this.#entries.has(name));
      const lists = await Promise.all(
        [...new Set([...fresh, ...names.filter((n) => present.has(n))])].map((name) => this.store.list(name)),
      );
      const stale = lists.flatMap((listed) =>
        [...listed].flatMap(([name, files]) => (this.#entries.get(name)?.fingerprint === fingerprintOf(files) ? [] : [{ name, files }])),
      );
      await this.#update(
        stale,
        [...this.#entries.keys()].filter((name) => !present.has(name)),
      );
      return byTime([...this.#entries.values()]);
    });
  }

  /** Whether the index has been built once (read from its file, or from the store): until then a first look may take minutes. */
  get built(): boolean {
    this.#load();
    return this.#built;
  }

  /** While a look verifies captures: how many of those it has to are done. */
  progress(): { checked: number; total: number } | undefined {
    return this.#progress;
  }

  /** The entries as last looked at (no look at the store). */
  entries(): CaptureEntry[] {
    this.#load();
    return byTime([...this.#entries.values()]);
  }

  /** One capture verified again from every byte now, whatever its fingerprint says; its entry replaced. */
  recheck(name: string): Promise<CaptureEntry | undefined> {
    return this.#serially(async () => {
      const files = (await this.store.list(name)).get(name);
      if (!files) return undefined;
      const entry = await this.#examine(name, files, fingerprintOf(files));
      this.#entries.set(name, entry);
      this.#save();
      return entry;
    });
  }

  async #examine(name: string, files: StoredFile[], fingerprint: string): Promise<CaptureEntry> {
    const result = await verifyCapture(storeSource(this.store, name, files), { tsaCa: this.#options.tsaCa });
    const manifest: Manifest | undefined = result.manifest;
    const validTime = result.timestamp?.problems.length === 0 ? result.timestamp.genTime : undefined;
    const tsaTime = result.certifiedLate ? undefined : validTime;
    // One form for every time (milliseconds included), so that times compare as strings.
    const createdAt = new Date(manifest?.createdAt ?? timeOfName(name)).toISOString();
    const certification = !result.certifiedLate
      ? undefined
      : validTime
        ? { certifiedAt: validTime.toISOString() }
        : result.timestamp
          ? undefined
          : ({ waiting: true } as const);
    return {
      name,
      fingerprint,
      complete: result.complete,
      ...(result.complete ? {} : { missing: result.problems[0] }),
      time: tsaTime?.toISOString() ?? createdAt,
      timeSource: tsaTime ? "tsa" : "clock",
      ...(certification ? { certification } : {}),
      createdAt,
      kind: manifest ? kindOf(manifest) : "unrecorded",
      commit: manifest?.commit,
      origin: manifest?.origin,
      manifestSha256: result.manifestSha256,
      warc: manifest?.warc,
      pages: (manifest?.pages ?? []).map((p) => ({
        path: p.path,
        title: pageTitle(p),
        url: p.url,
        status: p.status,
        pdf: p.pdf,
        htmlSha256: p.htmlSha256,
        textSha256: p.textSha256,
        approvedSha256: approvedHashOf(manifest!, p.path),
      })),
      approvals: manifest ? this.#approvals(manifest) : [],
      ...(manifest && "published" in manifest && manifest.published ? { published: manifest.published } : {}),
      ...(manifest && "reviews" in manifest && manifest.reviews
        ? { overdue: manifest.reviews.filter((r) => r.status === "overdue").map((r) => r.page) }
        : {}),
      ok: result.ok,
      lines: result.lines,
      problems: result.problems,
      checkedAt: new Date().toISOString(),
    };
  }

  /** The manifest's approvals, completed from git (principal, editors) where the manifest predates them. */
  #approvals(manifest: Manifest): ManifestApproval[] {
    const own = manifest.approvals as ManifestApproval[];
    const repo = this.#options.repo;
    if (!repo || own.every((a) => a.principal && a.editedBy)) return own;
    const fromGit = new Map(
      approvalsAt(
        repo,
        manifest.commit,
        own.map((a) => a.page),
      ).map((a) => [a.page, a]),
    );
    return own.map((a) => {
      const known = fromGit.get(a.page);
      return known?.sha256 === a.sha256
        ? { ...known, ...a, editedBy: a.editedBy ?? known.editedBy, principal: a.principal ?? known.principal }
        : a;
    });
  }
}

/** The capture in force at a moment (the last complete one at or before it), the one after it, and the first of all. */
export function asOf(entries: CaptureEntry[], at: Date): { current?: CaptureEntry; next?: CaptureEntry; first?: CaptureEntry } {
  const complete = entries.filter((e) => e.complete);
  const when = at.toISOString();
  // Binary search over times of record (entries are sorted): the last at or before `when`.
  let low = 0;
  let high = complete.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (complete[mid]!.time <= when) low = mid + 1;
    else high = mid;
  }
  return { current: complete[low - 1], next: complete[low], first: complete[0] };
}

/** Pages whose text differs from the capture before (all of them for the first). */
export function changedSince(entry: CaptureEntry, previous: CaptureEntry | undefined): CapturePage[] {
  if (!previous) return entry.pages;
  const before = new Map(previous.pages.map((p) => [p.path, p.textSha256]));
  return entry.pages.filter((p) => before.get(p.path) !== p.textSha256);
}

/** Where a store's index is kept: inside a folder store (beside its captures), else in the project's `.records/`. */
export function cacheFileFor(store: ArchiveStore, project: string): string {
  return store instanceof FolderStore
    ? join(store.root, ".index.json")
    : join(project, ".records", `index-${sha256Hex(store.label).slice(0, 16)}.json`);
}
