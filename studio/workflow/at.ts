/**
 * A revision's files and ledger as git holds them (no checkout): what the workflow reads of `main` and of
 * an entry. What a commit named by its full hash holds never changes, so its files are read once and
 * kept (commitOf names a ref's commit): the board reads the same ones on every visit, and a git process
 * is tens of milliseconds, during which the studio answers no one else.
 */
import { emptyLedger, LEDGER_FILE, parseLedger, type Ledger } from "../../lib/approval/ledger.ts";
import { git } from "../git.ts";

/** A git object's full hash (SHA-1 or SHA-256). */
export const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/**
 * Past this many kept reads, the oldest half is dropped: the board reads about 30 files of a main today
 * (the policy, the ledger, each document and each approved text), so a thousand keep the last mains'
 * and the reviews' reads, a few MB, in a studio that runs for months.
 */
const KEEP = 1_000;
const kept = new Map<string, string>();

/**
 * What `git <args>` printed (trimmed), null when git refused: read once and kept for a commit named by its
 * hash (`revision`, which `args` name), run now for any other revision. A refusal is not kept (git may
 * have failed to start).
 */
export function readAt(repo: string, revision: string, ...args: string[]): string | null {
  const key = HASH.test(revision) ? `${repo}\0${args.join("\0")}` : undefined;
  const known = key === undefined ? undefined : kept.get(key);
  if (known !== undefined) return known;
  let out: string | null;
  try {
    out = git(repo, ...args);
  } catch {
    out = null;
  }
  if (key !== undefined && out !== null) {
    if (kept.size >= KEEP) for (const old of [...kept.keys()].slice(0, KEEP / 2)) kept.delete(old);
    kept.set(key, out);
  }
  return out;
}

/**
 * The commit a revision names now, by its hash (a branch moves; what is read of it is then read of the
 * commit, and kept); the revision itself when it names none (the reads then fail as they would have).
 */
export function commitOf(repo: string, revision: string): string {
  if (HASH.test(revision)) return revision;
  try {
    return git(repo, "rev-parse", "--verify", "--quiet", `${revision}^{commit}`);
  } catch {
    return revision;
  }
}

export const ledgerAt = (repo: string, revision: string): Ledger => {
  const text = readAt(repo, revision, "show", `${revision}:${LEDGER_FILE}`);
  try {
    return text === null ? emptyLedger() : parseLedger(text, LEDGER_FILE);
  } catch {
    return emptyLedger();
  }
};

export const fileAt = (repo: string, revision: string, path: string) => {
  const text = readAt(repo, revision, "show", `${revision}:${path}`);
  return text === null ? "" : `${text}\n`;
};
