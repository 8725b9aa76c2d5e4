/** The files around approval: the built pages, the ledger and the approved texts (used by scripts, not by pages). */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { emptyLedger, LEDGER_FILE, parseLedger, serializeLedger, textFileOf, type Ledger } from "./ledger.ts";
import { pageOfHtmlFile } from "../pages.ts";
import { extractPageText, pageTextHash } from "./text.ts";

export interface BuiltPage {
  /** "/", "/privacy-policy", "/404" */
  page: string;
  /** Absolute path of the HTML file. */
  file: string;
  text: string;
  sha256: string;
}

/** Every HTML page of a build folder with its text and hash, sorted by page path. */
export function builtPages(outDir: string): BuiltPage[] {
  return readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".html"))
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      const text = extractPageText(readFileSync(file, "utf8"));
      return { page: pageOfHtmlFile(relative(outDir, file)), file, text, sha256: pageTextHash(text) };
    })
    .sort((a, b) => a.page.localeCompare(b.page));
}

/** The committed ledger of a project folder; an empty one when the file does not exist yet. */
export function readLedger(projectRoot: string): Ledger {
  const file = join(projectRoot, LEDGER_FILE);
  return existsSync(file) ? parseLedger(readFileSync(file, "utf8"), LEDGER_FILE) : emptyLedger();
}

export function writeLedger(projectRoot: string, ledger: Ledger) {
  const file = join(projectRoot, LEDGER_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, serializeLedger(ledger));
}

export function writeApprovedText(projectRoot: string, page: string, text: string) {
  const file = join(projectRoot, textFileOf(page));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
