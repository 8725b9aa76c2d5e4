/**
 * The studio's records: the archive store (`ARCHIVE_STORE`: a folder, by default the checkout's
 * `archive/`, or S3 with Object Lock), its index, and the TSA's CA that timestamp tokens are checked
 * against (`ARCHIVE_TSA_CA`). Opened once at start; every page reads the store through the index, which
 * notices a file rewritten, added or removed in the store at the next look.
 */
import { Catalog, cacheFileFor, type CaptureEntry } from "../../lib/records/catalog.ts";
import { openStore, storeSource, StoreError, type ArchiveStore } from "../../lib/records/store.ts";
import { loadTsaCa } from "../../lib/records/timestamp.ts";
import { verifyCapture } from "../../lib/records/verify.ts";
import { StudioRefusal } from "../git.ts";

export interface Records {
  store: ArchiveStore;
  catalog: Catalog;
  tsaCa?: string;
  /** Every capture, oldest first; a store that cannot be read answers with one sentence. */
  entries(): Promise<CaptureEntry[] | { unavailable: string }>;
  /** One capture by name, verified again from every byte as stored (its own page shows this, never the index's). */
  fresh(name: string): Promise<CaptureEntry | undefined>;
}

export async function openRecords(env: NodeJS.ProcessEnv, project: string, repo: string): Promise<Records> {
  let store: ArchiveStore;
  let tsaCa: string | undefined;
  try {
    store = await openStore(env.ARCHIVE_STORE, project);
    tsaCa = loadTsaCa(env.ARCHIVE_TSA_CA);
  } catch (error) {
    throw new StudioRefusal(`The records cannot be opened: ${(error as Error).message}`);
  }
  const catalog = new Catalog(store, { cacheFile: cacheFileFor(store, project), tsaCa, repo });
  return {
    store,
    catalog,
    tsaCa,
    async entries() {
      try {
        return await catalog.refresh();
      } catch (error) {
        const reason = error instanceof StoreError ? error.message : `${store.label} could not be read: ${(error as Error).message}.`;
        return { unavailable: reason };
      }
    },
    async fresh(name) {
      const all = await catalog.refresh();
      const entry = all.find((e) => e.name === name);
      if (!entry?.complete) return entry;
      const files = (await store.list()).get(name) ?? [];
      const result = await verifyCapture(storeSource(store, name, files), { tsaCa });
      return { ...entry, ok: result.ok, lines: result.lines, problems: result.problems };
    },
  };
}
