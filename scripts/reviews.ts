/**
 * `npm run reviews`: every page of the site with its last review (date and principal), its due date
 * under approvals/review-policy.yaml and one status, `overdue`, `due soon` (within 30 days) or `ok`,
 * compared in the firm's time zone against this machine's clock. Exits 1 when a page is overdue.
 * `-- --report FILE` writes the same as Markdown; `-- --on YYYY-MM-DD` answers for another day.
 * `-- --remind` also opens, comments on and closes the `review-due` GitHub issues (scripts/lib/review-reminders.ts,
 * environment as scripts/lib/github.ts reads it); then the issues are the alarm, and it exits 0 unless GitHub refused.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { projectRoot } from "../lib/root.ts";
import { byUrgency, lastReviewWritten, projectReviews, reviewsMarkdown, ruleWritten } from "../lib/approval/review-report.ts";
import { dayShort } from "../lib/dates.ts";
import { gitHubFromEnv } from "./lib/github.ts";
import { remind } from "./lib/review-reminders.ts";

const usage = "usage: npm run reviews [-- --report <file.md>] [-- --on YYYY-MM-DD] [-- --remind]";

function fail(message: string, code = 2): never {
  console.error(`reviews: ${message}`);
  process.exit(code);
}

let values: { report?: string; on?: string; remind?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { report: { type: "string" }, on: { type: "string" }, remind: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  }));
} catch (error) {
  fail(`${error instanceof Error ? error.message : error}; ${usage}`);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (values.on !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(values.on) || Number.isNaN(Date.parse(`${values.on}T00:00:00Z`))))
  fail(`--on takes a day as YYYY-MM-DD, not "${values.on}"`);

let result: ReturnType<typeof projectReviews>;
try {
  result = projectReviews(projectRoot, values.on);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { policy, today, reviews } = result;
const width = Math.max(...reviews.map((r) => r.page.length));
console.log(`Page reviews as of ${dayShort(today)} (${policy.timeZone}):`);
for (const r of byUrgency(reviews))
  console.log(
    `  ${r.status.padEnd(8)}  ${r.page.padEnd(width)}  ${r.title}: last reviewed ${lastReviewWritten(r)}; due ${dayShort(r.dueDay)} (${ruleWritten(r)})`,
  );
if (values.report) {
  writeFileSync(values.report, reviewsMarkdown(reviews, today, policy.timeZone));
  console.log(`reviews: wrote ${values.report}`);
}
if (values.remind) {
  try {
    const github = gitHubFromEnv("site-reviews");
    const done = await remind(reviews, github);
    console.log(done.length ? done.map((line) => `reviews: ${line}`).join("\n") : "reviews: every reminder due today was already given");
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  process.exit(0);
}
const overdue = reviews.filter((r) => r.status === "overdue");
if (overdue.length > 0) {
  console.error(`reviews: ${overdue.length} page(s) overdue for review: ${overdue.map((r) => r.page).join(", ")}`);
  process.exit(1);
}
