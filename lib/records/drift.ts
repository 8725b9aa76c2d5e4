/**
 * The check that the live site still says what main's principal approved (FINRA Rule 2210(b)(1)):
 * the deploy archives once, but a host, a CDN rule or a hand edit can change a page later. Every page
 * of the build is asked of the live origin as a browser asks it, its text hashed as the approval gate
 * hashes it and compared with main's ledger; a page that differs gets the words that differ (the word
 * diff of the studio's review, lib/words.ts) and its name as people say it. Used by
 * `npm run records:check` and, every day, by .github/workflows/records-daily.yml.
 */
import { reportTime } from "../dates.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtPages, readLedger } from "../approval/files.ts";
import { textFileOf } from "../approval/ledger.ts";
import { extractPageText, pageTextHash } from "../approval/text.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { pageNamer } from "../../src/build/documents.ts";
import { changedWithContext, diffRows, readableLines, type Line, type Row } from "../words.ts";
import { UNKNOWN_PATH } from "./manifest.ts";

export type DriftRows = Array<Row | { skipped: number }>;

export interface DriftPage {
  /** The page's path in the build ("/404" stands for any unknown path). */
  path: string;
  /** As people say it: "Landing page", "Privacy Policy", "Page not found (404)". */
  title: string;
  /** What was asked of the live site. */
  url: string;
  status: number;
  ok: boolean;
  /** Why the page is not ok, as the rest of a sentence that starts with its title. */
  problem?: string;
  /** The words the approved text has and the live page lacks, and the reverse, run by run. */
  removed: string[];
  added: string[];
  /** The changed lines with one line of context each side, when the text differs. */
  rows?: DriftRows;
}

export interface DriftReport {
  origin: string;
  /** ISO 8601, UTC. */
  checkedAt: string;
  pages: DriftPage[];
  /** How many pages are not ok. */
  drifted: number;
}

/** What a browser sends for a page: fetch undoes the content codings itself, as the Fetch standard says a browser does. */
const HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br, zstd",
  "user-agent": "Mozilla/5.0 (compatible; archive-check)",
};
/** Lines of a report per page, at most. */
const MAX_LINES = 60;

/** Pages named as the studio names them (studio/workflow/titles.ts), from main's content files. */
export function pageTitles(root: string): (page: string) => string {
  return pageNamer(documentFiles(root));
}

/** An approved text as lines when its HTML is not at hand: the gate's tags named in words. */
const textLines = (text: string): Line[] =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const tag = /^\[([a-z ]+)\] (.*)$/.exec(line);
      return tag ? { where: `${tag[1]![0]!.toUpperCase()}${tag[1]!.slice(1)}`, text: tag[2]! } : { text: line };
    });

const reason = (error: unknown): string => {
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  const cause = error instanceof Error ? (error.cause as { message?: string } | undefined) : undefined;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
};

const wordsOf = (rows: DriftRows, change: "added" | "removed") =>
  rows.flatMap((row) => ("parts" in row ? row.parts.filter((p) => p.change === change).map((p) => p.text) : []));

export async function checkDrift(options: {
  origin: string;
  dist: string;
  root: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<DriftReport> {
  const { dist, root, fetch: get = fetch, timeoutMs = 30_000 } = options;
  const origin = new URL(options.origin).origin;
  const checkedAt = new Date().toISOString();
  const ledger = readLedger(root);
  const titleOf = pageTitles(root);
  const pages: DriftPage[] = [];
  for (const built of builtPages(dist)) {
    const { page: path } = built;
    const expected = path === "/404" ? 404 : 200;
    const url = `${origin}${path === "/404" ? UNKNOWN_PATH : path}`;
    const entry: DriftPage = { path, title: titleOf(path), url, status: 0, ok: false, removed: [], added: [] };
    pages.push(entry);
    let html: string;
    try {
      // A redirect is itself a finding: the page at this URL is not the one approved for it.
      const response = await get(url, { headers: HEADERS, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
      entry.status = response.status;
      if (response.status !== expected) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        entry.problem =
          response.status >= 300 && response.status < 400
            ? `redirects (${response.status}) to ${location ?? "no location"} instead of answering ${expected}`
            : `answered ${response.status} instead of ${expected}`;
        continue;
      }
      html = await response.text();
    } catch (error) {
      throw new Error(`${origin} could not be reached: ${reason(error)}`, { cause: error });
    }
    const text = extractPageText(html);
    const approved = ledger.pages[path];
    if (!approved) {
      entry.problem = "is live but has never been approved on main";
      continue;
    }
    if (pageTextHash(text) === approved.sha256) {
      entry.ok = true;
      continue;
    }
    const file = join(root, textFileOf(path));
    const approvedText = existsSync(file) ? readFileSync(file, "utf8") : "";
    // The build's HTML names every line as the studio does, when its text is the approved one (the gate saw to that).
    const named = built.text === approvedText;
    const before = named ? readableLines(readFileSync(built.file, "utf8")) : textLines(approvedText);
    const after = named ? readableLines(html) : textLines(text);
    entry.rows = changedWithContext(diffRows(before, after));
    entry.removed = wordsOf(entry.rows, "removed");
    entry.added = wordsOf(entry.rows, "added");
    entry.problem = "differs from the approved text";
  }
  return { origin, checkedAt, pages, drifted: pages.filter((p) => !p.ok).length };
}

type Marks = { plain: (t: string) => string; removed: (t: string) => string; added: (t: string) => string; where: (t: string) => string };

const rowLine = (row: Row, marks: Marks) =>
  (row.where ? marks.where(row.where) : "") +
  row.parts.map((p) => `${p.space ? " " : ""}${(p.change ? marks[p.change] : marks.plain)(p.text)}`).join("");

/** The rows as lines, at most `max`; the rest counted. */
function rowLines(rows: DriftRows, marks: Marks, max: number, skipped: (n: number) => string): string[] {
  const lines = rows.map((row) => ("skipped" in row ? skipped(row.skipped) : rowLine(row, marks)));
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max - 1), `… ${lines.length - max + 1} more lines: npm run records:check shows them all`];
}

const short = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** The first few runs of words, quoted. */
const quoted = (runs: string[], quote: (t: string) => string) =>
  runs.length === 0
    ? "nothing"
    : runs
        .slice(0, 8)
        .map((t) => `“${quote(short(t))}”`)
        .join(", ") + (runs.length > 8 ? ` and ${runs.length - 8} more` : "");

const lines = (n: number) => `${n} unchanged line${n === 1 ? "" : "s"}`;
const whenUtc = reportTime;
const summary = (report: DriftReport) =>
  report.drifted === 0
    ? `all ${report.pages.length} pages are the approved text of main`
    : `${report.drifted} of ${report.pages.length} pages differ from the approved text of main`;
const checkCommand = (origin: string) => `npm run records:check -- --origin ${origin}`;

/** The report for a terminal: one line per page (✓ or ✗ and its title), the words for those that differ. */
export function formatDriftText(report: DriftReport): string[] {
  const marks: Marks = { plain: (t) => t, removed: (t) => `[-${t}-]`, added: (t) => `{+${t}+}`, where: (t) => `${t}: ` };
  const out = [`Checked ${report.origin} on ${whenUtc(report.checkedAt)}:`];
  for (const page of report.pages) {
    out.push(`${page.ok ? "✓" : "✗"} ${page.title} (${page.url})${page.problem ? ` ${page.problem}` : ""}`);
    if (!page.rows) continue;
    out.push(`    approved: ${quoted(page.removed, (t) => t)}`, `    live:     ${quoted(page.added, (t) => t)}`);
    out.push(...rowLines(page.rows, marks, MAX_LINES - 3, (n) => `… ${lines(n)} …`).map((line) => `    | ${line}`));
  }
  out.push(`${summary(report)}.`);
  return out;
}

/** Markdown's own characters, escaped, so that page text reads as it is. */
const md = (text: string) =>
  text.replace(/[\\`*_[\]<>|~#&]/g, "\\$&").replace(/^(\d+)\.|^([-+])/, (m, n?: string) => (n ? `${n}\\.` : `\\${m}`));

/** The report as the body of a GitHub issue: each differing page by its title, approved words beside live ones. */
export function formatDriftMarkdown(report: DriftReport): string {
  const marks: Marks = {
    plain: md,
    removed: (t) => `<del>${md(t)}</del>`,
    added: (t) => `<ins>${md(t)}</ins>`,
    where: (t) => `**${md(t)}:** `,
  };
  const out = [`## Live site check of ${whenUtc(report.checkedAt)}`, "", `${report.origin}: ${summary(report)}.`];
  for (const page of report.pages.filter((p) => !p.ok)) {
    out.push("", `### ${md(page.title)}`, "", `<${page.url}> ${md(page.problem ?? "")}.`);
    if (!page.rows) continue;
    out.push("", `- **Approved:** ${quoted(page.removed, md)}`, `- **Live:** ${quoted(page.added, md)}`, "");
    out.push(...rowLines(page.rows, marks, MAX_LINES - 10, (n) => `*… ${lines(n)} …*`).map((line) => `> ${line}  `));
  }
  out.push(
    "",
    "---",
    "",
    `Check again with \`${checkCommand(report.origin)}\`, or run the “Archive daily” workflow by hand. ` +
      "The approved text of each page is in `approvals/text/` on main; deploying main again (re-run the Deploy workflow) puts the site back.",
  );
  return `${out.join("\n")}\n`;
}
