/**
 * `npm run records:report-drift -- --report FILE`: tells people that the live site differs from the
 * approved text, where they already look: a GitHub issue. One issue for as long as the drift lasts
 * (the open one labelled `site-drift` gets each day's report as a comment; a new one is opened only
 * when none is open), so that a week of drift is one thread to act on, not seven. Run by the daily
 * workflow's `report` job (the only job allowed to write issues) with the report `records:check` wrote.
 * Environment: as scripts/lib/github.ts reads it (GITHUB_TOKEN, GITHUB_REPOSITORY…).
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { gitHubFromEnv, type GitHub } from "./lib/github.ts";

const LABEL = "site-drift";
const ISSUE_TITLE = "The live site differs from the approved text";
/** GitHub refuses bodies over 65,536 characters. */
const MAX_BODY = 60_000;

function fail(message: string, code = 1): never {
  console.error(`records:report-drift: ${message}`);
  process.exit(code);
}

let values: { report?: string };
try {
  ({ values } = parseArgs({ options: { report: { type: "string" } } }));
} catch (error) {
  fail(`${error instanceof Error ? error.message : error}; usage: npm run records:report-drift -- --report <file.md>`, 2);
}
if (!values.report) fail("usage: npm run records:report-drift -- --report <file.md> (the report npm run records:check wrote)", 2);
if (!existsSync(values.report))
  fail(`${values.report} does not exist: write it with npm run records:check -- --origin <URL> --report ${values.report}`, 2);

let client: GitHub;
try {
  client = gitHubFromEnv("archive-report-drift");
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), 2);
}
const { repo, call: github, runUrl } = client;

interface Issue {
  number: number;
  html_url: string;
  pull_request?: unknown;
  labels?: Array<{ name: string } | string>;
}

try {
  const run = runUrl ? `\n\nThe run that found it: ${runUrl}\n` : "\n";
  let report = readFileSync(values.report, "utf8").trimEnd();
  if (report.length > MAX_BODY)
    report = `${report.slice(0, MAX_BODY)}\n\n… the report is longer than an issue can hold; the run has all of it.`;
  const body = `${report}${run}`;

  // The label first: GitHub drops the labels of a new issue that do not exist yet.
  const label = await github("GET", `/repos/${repo}/labels/${LABEL}`, undefined, [200, 404]);
  if (label.status === 404)
    await github(
      "POST",
      `/repos/${repo}/labels`,
      { name: LABEL, color: "b60205", description: "The live site differs from the approved text (records-daily.yml)" },
      [201, 422],
    );

  const open = await github<Issue[]>("GET", `/repos/${repo}/issues?state=open&labels=${LABEL}&sort=created&direction=asc&per_page=100`);
  const issue = open.data.find((item) => !item.pull_request);
  if (issue) {
    await github("POST", `/repos/${repo}/issues/${issue.number}/comments`, { body });
    console.log(`records:report-drift: added the report to the open issue #${issue.number}: ${issue.html_url}`);
  } else {
    const created = await github<Issue>("POST", `/repos/${repo}/issues`, { title: ISSUE_TITLE, body, labels: [LABEL] });
    const labels = (created.data.labels ?? []).map((l) => (typeof l === "string" ? l : l.name));
    // Without the label, tomorrow's run would not find this issue and open another.
    if (!labels.includes(LABEL)) await github("POST", `/repos/${repo}/issues/${created.data.number}/labels`, { labels: [LABEL] });
    console.log(`records:report-drift: opened issue #${created.data.number}: ${created.data.html_url}`);
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
