/**
 * The studio's records: the archive store (`ARCHIVE_STORE`: a folder, by default the checkout's
 * `archive/`, or S3 with Object Lock), its index, and the TSA's CA that timestamp tokens are checked
 * against (`ARCHIVE_TSA_CA`). Opened once at start; every page reads the store through the index, which
 * notices a file rewritten, added or removed in the store at the next look.
 */
import { Catalog, cacheFileFor, type CaptureEntry } from "../../lib/records/catalog.ts";
import { openStore, type ArchiveStore } from "../../lib/records/store.ts";
import { loadTsaCa } from "../../lib/records/timestamp.ts";
import { signingKeyFrom } from "../../lib/records/wacz.ts";
import type { KeyObject } from "node:crypto";
import { StudioRefusal } from "../git.ts";

export type Looked = CaptureEntry[] | { unavailable: string } | { building: { checked: number; total: number } };

export interface Records {
  store: ArchiveStore;
  catalog: Catalog;
  tsaCa?: string;
  /** The firm's key for signing a WACZ export (ARCHIVE_WACZ_KEY, decision 0055); unsigned without it. */
  waczKey?: KeyObject;
  /** The firm's TSA (ARCHIVE_TSA_URL): the time of a WACZ's signature. */
  tsaUrl?: string;
  /**
   * Every capture, oldest first. The first look at a large store verifies every capture (minutes for
   * years of them): meanwhile this answers how far it is; a store that cannot be read, with one sentence.
   */
  entries(): Promise<Looked>;
  /** The same from a look at the names alone, and at the files of the captures named (a page about one capture). */
  look(names?: string[]): Promise<Looked>;
  /** One capture verified again from every byte as stored, now. */
  recheck(name: string): Promise<CaptureEntry | undefined>;
}

/** Failures of the network or of the store itself (a 5xx): the store cannot be reached just now. */
const NETWORK =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|TimeoutError|RequestTimeout|ServiceUnavailable|SlowDown|InternalError)$/;

function outage(error: unknown): boolean {
  for (
    let e = error as { code?: string; name?: string; cause?: unknown; $metadata?: { httpStatusCode?: number } } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (NETWORK.test(e.code ?? "") || NETWORK.test(e.name ?? "") || (e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  }
  return false;
}

/**
 * The records store failed: one sentence naming it for the page (never its endpoint or an error code),
 * and what failed for the studio's log.
 */
export function storeTrouble(store: ArchiveStore, error: unknown): string {
  console.error(`studio: records: ${error instanceof Error ? error.message : String(error)}`);
  return outage(error)
    ? `The records store (${store.label}) cannot be reached just now, so the records cannot be shown. Try again in a few minutes; if it goes on, tell the studio's administrator.`
    : `The records store (${store.label}) could not be read, so the records cannot be shown: tell the studio's administrator, whose log says why.`;
}

export async function openRecords(env: NodeJS.ProcessEnv, project: string, repo: string): Promise<Records> {
  let store: ArchiveStore;
  let tsaCa: string | undefined;
  let waczKey: KeyObject | undefined;
  try {
    store = await openStore(env.ARCHIVE_STORE, project);
    tsaCa = loadTsaCa(env.ARCHIVE_TSA_CA);
    waczKey = signingKeyFrom(env.ARCHIVE_WACZ_KEY);
  } catch (error) {
    throw new StudioRefusal(`The records cannot be opened: ${(error as Error).message}`);
  }
  const catalog = new Catalog(store, { cacheFile: cacheFileFor(store, project), tsaCa, repo });
  const unavailable = (error: unknown) => ({ unavailable: storeTrouble(store, error) });
  // Built ahead, from the studio's start: the first person to open the records should not wait for it.
  const warming = catalog.refresh().catch(() => undefined);
  async function looked(look: () => Promise<CaptureEntry[]>): Promise<Looked> {
    if (!catalog.built) {
      const done = await Promise.race([warming.then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 1500, false))]);
      if (!done) return { building: catalog.progress() ?? { checked: 0, total: 0 } };
    }
    try {
      return await look();
    } catch (error) {
      return unavailable(error);
    }
  }
  return {
    store,
    catalog,
    tsaCa,
    ...(waczKey ? { waczKey } : {}),
    ...(env.ARCHIVE_TSA_URL ? { tsaUrl: env.ARCHIVE_TSA_URL } : {}),
    entries: () => looked(() => catalog.refresh()),
    look: (names) => looked(() => catalog.look(names)),
    async recheck(name) {
      try {
        return await catalog.recheck(name);
      } catch {
        return undefined;
      }
    },
  };
}
