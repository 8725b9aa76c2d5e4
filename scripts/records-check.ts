/**
 * `npm run records:check -- --origin URL [--dist DIR] [--report FILE]`: is the live site still the
 * approved text of main? Asks the origin for every page of the build (lib/records/drift.ts) and prints
 * one line per page, ✓ or ✗ and its title, with the words that differ. `--report FILE` writes the
 * report as Markdown (the body of the daily workflow's GitHub issue); under GitHub Actions the step's
 * outputs are `drift=true|false` and `report` (that Markdown), for the job that opens the issue.
 * Exit 0 when every page matches, 1 when one differs, 2 for bad usage or an origin that cannot be reached.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkDrift, formatDriftMarkdown, formatDriftText } from "../lib/records/drift.ts";
import { projectRoot } from "../lib/root.ts";

const USAGE = "usage: npm run records:check -- --origin <https://live.site> [--dist <build folder>] [--report <file.md>]";

function stop(message: string): never {
  console.error(`records:check: ${message}`);
  process.exit(2);
}

let values: { origin?: string; dist?: string; report?: string };
try {
  ({ values } = parseArgs({ options: { origin: { type: "string" }, dist: { type: "string" }, report: { type: "string" } } }));
} catch (error) {
  stop(`${error instanceof Error ? error.message : error}; ${USAGE}`);
}
if (!values.origin) stop(USAGE);
let origin: string;
try {
  origin = new URL(values.origin).origin;
  if (!/^https?:$/.test(new URL(origin).protocol)) throw new Error();
} catch {
  stop(`--origin must be an http or https address, such as https://www.example.com, not "${values.origin}"`);
}
const dist = resolve(values.dist ?? join(projectRoot, "dist"));
if (!existsSync(join(dist, "index.html"))) stop(`${dist} holds no built site: run npm run build first`);

try {
  const report = await checkDrift({ origin, dist, root: projectRoot });
  for (const line of formatDriftText(report)) console.log(line);
  const drift = report.drifted > 0;
  const markdown = formatDriftMarkdown(report);
  if (values.report) {
    writeFileSync(resolve(values.report), markdown);
    console.log(`records:check: wrote the report to ${values.report}`);
  }
  if (process.env.GITHUB_OUTPUT) {
    // A multi-line output ends at its delimiter: a random one, which no page's text can contain.
    const delimiter = `report_${randomBytes(16).toString("hex")}`;
    appendFileSync(process.env.GITHUB_OUTPUT, `drift=${drift}\nreport<<${delimiter}\n${markdown}${delimiter}\n`);
  }
  process.exit(drift ? 1 : 0);
} catch (error) {
  stop(error instanceof Error ? error.message : String(error));
}
