/** A revision's files and ledger as git holds them (no checkout): what the workflow reads of `main` and of an entry. */
import { emptyLedger, LEDGER_FILE, parseLedger, type Ledger } from "../../lib/approval/ledger.ts";
import { git } from "../git.ts";

export const ledgerAt = (repo: string, revision: string): Ledger => {
  try {
    return parseLedger(git(repo, "show", `${revision}:${LEDGER_FILE}`), LEDGER_FILE);
  } catch {
    return emptyLedger();
  }
};

export const fileAt = (repo: string, revision: string, path: string) => {
  try {
    return `${git(repo, "show", `${revision}:${path}`)}\n`;
  } catch {
    return "";
  }
};
