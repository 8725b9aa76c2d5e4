/**
 * `npm run records:export`: the examiner's export (lib/records/export.ts), the website as it appeared
 * over a range of time or on a list of days, with who approved it, in one zip.
 *
 *   npm run records:export -- --from 2026-03-14 --to 2026-03-20 --out export.zip [--by "Name"]
 *   npm run records:export -- --dates 2026-03-14,2026-04-01 --out export.zip
 *   npm run records:export -- --from 2026-03-14 --format wacz --out export.wacz
 *
 * `--format wacz` writes the same captures as one WACZ (lib/records/wacz.ts), which ReplayWeb.page opens,
 * gathering each capture stored with its own WACZ (made at capture time) as it is;
 * ARCHIVE_WACZ_KEY is the firm's signing key (EC P-384: the PEM, or a file holding it), without which the WACZ is not signed;
 * with ARCHIVE_TSA_URL, the TSA's token over the signature goes with it (`timeSignature`).
 *
 * Dates are whole UTC days (`--to` included) or a date and time with its zone (2026-03-14T12:00:00Z);
 * `--to` defaults to now. The store is ARCHIVE_STORE (a folder, default archive/, or s3://bucket/prefix),
 * read through the records' index; ARCHIVE_TSA_CA checks the timestamp tokens and goes into the zip.
 * Exit 0 when the zip was written, 1 when there is nothing to export or the store fails, 2 for bad usage.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { Catalog, cacheFileFor } from "../lib/records/catalog.ts";
import { ExportError, selectForExport, utcDay, writeExport, type ExportSelection } from "../lib/records/export.ts";
import { openStore, StoreError } from "../lib/records/store.ts";
import { signingKeyFrom, waczReadme, writeWacz } from "../lib/records/wacz.ts";
import { loadTsaCa, requestTimestamp, TimestampError } from "../lib/records/timestamp.ts";
import { projectRoot } from "../lib/root.ts";

const USAGE =
  'usage: npm run records:export -- (--from <date> [--to <date>] | --dates <date>,<date>…) [--format zip|wacz] --out <file> [--by "Name"]';

function stop(message: string, code = 2): never {
  console.error(`records:export: ${message}`);
  process.exit(code);
}

let values: { from?: string; to?: string; dates?: string; out?: string; by?: string; format?: string };
try {
  ({ values } = parseArgs({
    options: {
      from: { type: "string" },
      to: { type: "string" },
      dates: { type: "string" },
      out: { type: "string" },
      by: { type: "string" },
      format: { type: "string", default: "zip" },
    },
  }));
} catch (error) {
  stop(`${error instanceof Error ? error.message : error}; ${USAGE}`);
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
/** A whole UTC day (its first or last moment) or a date and time with its zone. */
function moment(option: string, value: string, end: boolean): Date {
  if (TIME.test(value) && !Number.isNaN(Date.parse(value))) return new Date(value);
  try {
    const day = utcDay(value);
    return end ? day.to : day.from;
  } catch {
    return stop(`--${option} must be a date (2026-03-14) or a date and time with its zone (2026-03-14T12:00:00Z), not "${value}".`);
  }
}

let selection: ExportSelection;
if (values.dates !== undefined) {
  if (values.from || values.to) stop(`give either --dates or --from and --to, not both; ${USAGE}`);
  const dates = values.dates.split(",").map((d) => d.trim());
  for (const day of dates) {
    try {
      utcDay(day);
    } catch {
      stop(`--dates takes days written YYYY-MM-DD, separated by commas (2026-03-14,2026-04-01), not "${day}".`);
    }
  }
  selection = { dates: [...new Set(dates)].sort() };
} else if (values.from) {
  selection = { from: moment("from", values.from, false), to: values.to ? moment("to", values.to, true) : new Date() };
  if (selection.from > selection.to) stop(`--to (${values.to ?? "now"}) is before --from (${values.from}).`);
} else stop(USAGE);
if (values.format !== "zip" && values.format !== "wacz") stop(`--format is zip or wacz, not "${values.format}"; ${USAGE}`);
if (!values.out) stop(`say where to write the ${values.format} with --out export.${values.format}; ${USAGE}`);
// npm runs scripts in the project's folder: a relative --out is where the command was typed.
const file = resolve(process.env.INIT_CWD ?? process.cwd(), values.out);

const gitConfig = (key: string) => spawnSync("git", ["config", key], { cwd: projectRoot, encoding: "utf8" }).stdout?.trim() || undefined;
const name = values.by?.trim() || gitConfig("user.name");
if (!name) stop('say who makes the export with --by "Name" (git\'s user.name is not set).');
const email = values.by ? undefined : gitConfig("user.email");

try {
  const tsaCa = loadTsaCa(process.env.ARCHIVE_TSA_CA);
  const store = await openStore(process.env.ARCHIVE_STORE, projectRoot);
  const catalog = new Catalog(store, { cacheFile: cacheFileFor(store, projectRoot), tsaCa, repo: projectRoot });
  const { captures, notes } = selectForExport(await catalog.refresh(), selection);
  for (const note of notes) console.log(`records:export: ${note}`);
  if (captures.length === 0) stop(`nothing to export from ${store.label}; no ${values.format} was written.`, 1);
  const failed = captures.filter((c) => !c.entry.ok).map((c) => c.entry.name);
  const says = values.format === "wacz" ? "records:verify of the WACZ names what is wrong" : "the export says so";
  if (failed.length) console.log(`records:export: ${failed.join(", ")} did not verify in the store; ${says}.`);
  if (values.format === "wacz") {
    const key = signingKeyFrom(process.env.ARCHIVE_WACZ_KEY);
    if (!key) console.log("records:export: ARCHIVE_WACZ_KEY is not set, so the WACZ is not signed.");
    const readme = ({ fingerprint }: { fingerprint: string | null }) =>
      waczReadme({ captures: captures.length, notes, by: name, fingerprint });
    // The firm's TSA, which certifies the captures, also gives the signature its time (decision 0055).
    const tsaUrl = process.env.ARCHIVE_TSA_URL || undefined;
    const timestamp = tsaUrl ? (data: Uint8Array) => requestTimestamp(tsaUrl, data) : undefined;
    const result = await writeWacz({
      store,
      captures,
      file,
      readme,
      ...(key ? { key } : {}),
      ...(timestamp ? { timestamp } : {}),
      ...(tsaCa ? { tsaCa } : {}),
    });
    if (result.untimed) console.log(`records:export: ${result.untimed} The WACZ is signed without trusted time.`);
    if (result.gathered.length)
      console.log(`records:export: gathered as stored at capture time, signed and timestamped then: ${result.gathered.join(", ")}`);
    for (const why of result.repackaged)
      console.log(`records:export: packaged again from its files, as its stored WACZ did not check out: ${why}`);
    console.log(
      `records:export: wrote ${result.file}: ${result.captures} capture(s), ${result.files} files, ${(result.bytes / 1e6).toFixed(1)} MB`,
    );
    console.log(`records:export: the WACZ's SHA-256 is ${result.sha256}`);
    console.log(`records:export: check it with npm run records:verify -- ${result.file}; open it in ReplayWeb.page (README.txt inside)`);
    process.exit(0);
  }
  const result = await writeExport({ store, selection, captures, notes, exportedBy: { name, ...(email ? { email } : {}) }, tsaCa, file });
  const size = result.bytes < 1e6 ? `${(result.bytes / 1e3).toFixed(0)} kB` : `${(result.bytes / 1e6).toFixed(1)} MB`;
  console.log(`records:export: wrote ${result.file}: ${result.captures} capture(s), ${result.files} files, ${size}`);
  console.log(`records:export: the zip's SHA-256 is ${result.sha256}`);
  console.log(`records:export: check it with npm run records:verify -- ${result.file} (or offline: README.txt inside)`);
} catch (error) {
  // The store's, the TSA's and the export's sentences are for people; anything else is a fault of the export itself.
  const known = error instanceof StoreError || error instanceof TimestampError || error instanceof ExportError;
  stop(known ? error.message : `the export failed: ${error instanceof Error ? error.message : error}`, 1);
}
