/**
 * `npm run approve -- <page path>... --by "<name>"` (or `--all`): records a registered principal's
 * approval of the pages' current text in approvals/ledger.json, and writes the approved text to
 * approvals/text/ so that a review sees the wording in the diff. The text comes from the preview build
 * (dist-preview/), built first when stale. `--diff` shows how the current text differs from the
 * approved one (every changed link target, image source or frame named on a line of its own) and records nothing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { approveCommand, LEDGER_FILE, PREVIEW_TEXTS_FILE, recordApproval, textFileOf } from "../lib/approval/ledger.ts";
import { readLedger, writeApprovedText, writeLedger } from "../lib/approval/files.ts";
import { projectRoot } from "./build-inputs.ts";
import { destinationsOf } from "../lib/approval/text.ts";
import { destinationChanges } from "../lib/words.ts";
import { buildPreview, PREVIEW_DIR, previewIsCurrent } from "./build-preview.ts";
import { factsOf } from "../lib/approval/facts.ts";
import { site } from "../src/config/site.ts";

const usage = `usage: ${approveCommand(["<page path>..."])}
       npm run approve -- --all --by "<principal's name, registration>"
       npm run approve -- --diff [<page path>...]`;

function fail(message: string): never {
  console.error(`approve: ${message}`);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { by: { type: "string" }, all: { type: "boolean" }, diff: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
} catch (error) {
  fail(`${error instanceof Error ? error.message : error}\n${usage}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const by = values.by?.trim() ?? "";
if (!values.diff && !by) fail(`--by needs the approving principal's name, for example --by "Pat Example, Series 24"\n${usage}`);
if (/[\r\n]/.test(by)) fail("--by must be one line");
if (!values.diff && !values.all && positionals.length === 0) fail(`name the pages to approve, or --all\n${usage}`);
if (values.all && positionals.length > 0) fail("--all approves every page: name no pages with it");

// Built from the current sources, so what is approved is exactly what the next build publishes.
if (!previewIsCurrent()) {
  console.log(`approve: building the preview (${PREVIEW_DIR}/) to read the current text`);
  const status = buildPreview();
  if (status !== 0) fail(`the preview build failed (exit ${status})`);
}
const textsFile = join(projectRoot, PREVIEW_DIR, PREVIEW_TEXTS_FILE);
if (!existsSync(textsFile)) fail(`${PREVIEW_DIR}/${PREVIEW_TEXTS_FILE} is missing: run npm run build:preview`);
const built = (JSON.parse(readFileSync(textsFile, "utf8")) as { pages: Record<string, { sha256: string; text: string }> }).pages;

const normalizePath = (path: string) => (`/${path.replace(/^\/+/, "")}`.replace(/\/+$/, "") || "/").replace(/\.html$/, "");
const requested = values.all || (values.diff && positionals.length === 0) ? Object.keys(built).sort() : positionals.map(normalizePath);
const unknown = requested.filter((page) => !built[page]);
if (unknown.length > 0) fail(`no such page: ${unknown.join(", ")} (pages: ${Object.keys(built).sort().join(", ")})`);

let ledger = readLedger(projectRoot);

if (values.diff) {
  const scratch = mkdtempSync(join(tmpdir(), "approval-diff-"));
  try {
    let differing = 0;
    for (const page of requested) {
      const current = built[page]!;
      if (ledger.pages[page]?.sha256 === current.sha256) continue;
      differing++;
      const approvedFile = join(projectRoot, textFileOf(page));
      const currentFile = join(scratch, "current.txt");
      writeFileSync(currentFile, current.text);
      console.log(`${page}: ${ledger.pages[page] ? "differs from its approved text" : "never approved"}`);
      // A changed link target, image or frame, said plainly: a changed destination is a changed communication.
      const approvedText = existsSync(approvedFile) ? readFileSync(approvedFile, "utf8") : "";
      if (destinationsOf(approvedText).length > 0)
        for (const line of destinationChanges(approvedText, current.text)) console.log(`  changed destination: ${line}`);
      spawnSync(
        "git",
        ["--no-pager", "diff", "--no-index", "--word-diff", existsSync(approvedFile) ? approvedFile : "/dev/null", currentFile],
        {
          stdio: "inherit",
        },
      );
    }
    console.log(differing === 0 ? "approve: every page's text is the approved one" : `approve: ${differing} page(s) to approve`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(0);
}

const now = new Date();
for (const page of requested) {
  const { sha256, text } = built[page]!;
  // The site's material facts as the build that made this text had them (the same environment): a later change makes the page due for review.
  const result = recordApproval(ledger, page, sha256, by, now, { facts: factsOf(site) });
  ledger = result.ledger;
  writeApprovedText(projectRoot, page, text);
  const entry = ledger.pages[page]!;
  console.log(
    result.changed
      ? `approved ${page} (sha256 ${sha256.slice(0, 12)}…) by ${entry.approvedBy} on ${entry.approvedOn}`
      : `unchanged ${page}: already approved by ${entry.approvedBy} on ${entry.approvedOn}`,
  );
}
writeLedger(projectRoot, ledger);
console.log(`approve: wrote ${LEDGER_FILE} and approvals/text/; commit them with the change they approve`);
