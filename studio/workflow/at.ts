/**
 * A revision's files and ledger as git holds them (no checkout): what the workflow reads of `main` and of
 * an entry. What a commit named by its full hash holds never changes, so git.ts reads it once and keeps
 * it (commitOf names a ref's commit): the board reads the same ones on every visit, and a git process
 * is tens of milliseconds, during which the studio answers no one else.
 */
import { emptyLedger, LEDGER_FILE, parseLedger, type Ledger } from "../../lib/approval/ledger.ts";
import { git, HASH } from "../git.ts";

/** What `git <args>` printed (trimmed), null when git refused (git.ts keeps what it read of a commit named by its hash). */
export function readAt(repo: string, ...args: string[]): string | null {
  try {
    return git(repo, ...args);
  } catch {
    return null;
  }
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
  const text = readAt(repo, "show", `${revision}:${LEDGER_FILE}`);
  try {
    return text === null ? emptyLedger() : parseLedger(text, LEDGER_FILE);
  } catch {
    return emptyLedger();
  }
};

export const fileAt = (repo: string, revision: string, path: string) => {
  const text = readAt(repo, "show", `${revision}:${path}`);
  return text === null ? "" : `${text}\n`;
};
