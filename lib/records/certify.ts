/**
 * Trusted time for a capture, asked as it is made and again later (decision 0040). A Time Stamp
 * Authority that cannot certify a capture (unreachable, failing, answering nonsense) no longer costs the
 * day's record: the capture is stored without its token, a note beside its manifest
 * (`manifest.json.tsr-pending`) says so, and the records show its time as not yet certified. Every later
 * `npm run records:capture` asks the TSA again for each capture still waiting, and adds the token beside its
 * manifest (a new file: the store never overwrites one; on S3 it is locked as the rest). A token that
 * comes later certifies that the manifest existed by then; the capture's time of record stays its own
 * clock's (lib/records/catalog.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST, TIMESTAMP_PENDING, TIMESTAMP_TOKEN } from "./manifest.ts";
import type { ArchiveStore } from "./store.ts";
import { requestTimestamp, TimestampError, verifyTimestamp, type TimestampCheck } from "./timestamp.ts";

export interface Stamped {
  /** The token checked out: the TSA's name and time. */
  check?: TimestampCheck;
  /** Not certified now: why, in one sentence (the capture is kept, and asked for again later). */
  pending?: string;
}

/**
 * Asks the TSA to certify a capture staged in `folder` before it is stored: its token beside the
 * manifest, or the note that it is still to come. A token that comes but does not check out against
 * the CA stops the run: that is no outage but a TSA (or a configuration) to look at.
 */
export async function stampStaged(folder: string, tsaUrl: string, tsaCa: string | undefined, now = new Date()): Promise<Stamped> {
  const manifest = readFileSync(join(folder, MANIFEST));
  let token: Buffer;
  try {
    token = await requestTimestamp(tsaUrl, manifest);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    writeFileSync(
      join(folder, TIMESTAMP_PENDING),
      `Not yet certified: ${error.message} (${now.toISOString()}). npm run records:capture asks the Time Stamp Authority again until it certifies this capture.\n`,
    );
    return { pending: error.message };
  }
  const check = await verifyTimestamp(token, manifest, tsaCa);
  if (!check.ok)
    throw new TimestampError(`the Time Stamp Authority's token does not check out; nothing was stored: ${check.problems.join(" ")}`);
  writeFileSync(join(folder, TIMESTAMP_TOKEN), token);
  return { check };
}

export interface Certified {
  /** Captures certified now, with the TSA's time. */
  certified: Array<{ name: string; genTime?: Date; tsa?: string }>;
  /** Captures still waiting (the TSA did not certify them this time either), with why. */
  waiting: Array<{ name: string; why: string }>;
}

/** Asks the TSA for the token of every capture of the store that is still waiting for one. */
export async function certifyWaiting(store: ArchiveStore, tsaUrl: string, tsaCa: string | undefined): Promise<Certified> {
  const result: Certified = { certified: [], waiting: [] };
  const listed = await store.list();
  const waiting = [...listed].filter(([, files]) => {
    const paths = new Set(files.map((f) => f.path));
    return paths.has(TIMESTAMP_PENDING) && paths.has(MANIFEST) && !paths.has(TIMESTAMP_TOKEN);
  });
  for (const [name] of waiting) {
    const manifest = await store.read(name, MANIFEST);
    if (!manifest) continue;
    let token: Buffer;
    try {
      token = await requestTimestamp(tsaUrl, manifest);
    } catch (error) {
      if (!(error instanceof TimestampError)) throw error;
      // The TSA is out again: the others wait for the next run as well.
      for (const [rest] of waiting.slice(waiting.findIndex(([n]) => n === name))) result.waiting.push({ name: rest, why: error.message });
      break;
    }
    const check = await verifyTimestamp(token, manifest, tsaCa);
    if (!check.ok) {
      result.waiting.push({ name, why: `its token does not check out: ${check.problems.join(" ")}` });
      continue;
    }
    await store.addFile(name, TIMESTAMP_TOKEN, token);
    result.certified.push({ name, genTime: check.genTime, tsa: check.tsa });
  }
  return result;
}
