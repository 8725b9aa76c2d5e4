import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { checkWorkflow, npmCommands } from "../../scripts/lib/workflow-check.ts";

/**
 * The pipeline's workflows (.github/workflows), checked offline with GitHub's own parser and actionlint
 * (scripts/lib/workflow-check.ts), and held to the project's rules: every `run:` step runs npm with a
 * script package.json has, the CI job runs the README's test command, every action is pinned by commit,
 * permissions are granted per job and least, and no secret reaches a command line.
 */
const folder = ".github/workflows";
const files = readdirSync(folder).filter((name) => name.endsWith(".yml"));
const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
/** The only write permissions, per workflow and job: the AWS role's OIDC token, and the drift issue. */
const WRITES: Record<string, Record<string, string[]>> = {
  "deploy.yml": { deploy: ["id-token"] },
  "records-daily.yml": { capture: ["id-token"], report: ["issues"], reviews: ["issues"] },
};
/** The README's test command: the second of its "Two commands". */
const readmeTest = /```sh\nnpm install && npm start[^\n]*\n(npm [a-z]+)\s/.exec(readFileSync("README.md", "utf8"))?.[1];

describe("the GitHub Actions workflows", () => {
  it("are ci.yml, deploy.yml and records-daily.yml", () => {
    expect(files.sort()).toEqual(["ci.yml", "deploy.yml", "records-daily.yml"]);
  });

  it.each(files)("%s: GitHub's parser and actionlint report nothing", async (name) => {
    const { problems, steps } = await checkWorkflow(join(folder, name));
    expect(problems).toEqual([]);
    expect(steps.length).toBeGreaterThan(3);
  });

  it.each(files)("%s: every run: step runs npm, with a script package.json has", async (name) => {
    const { steps } = await checkWorkflow(join(folder, name));
    for (const { run } of steps.filter((step) => step.run !== undefined)) {
      const commands = npmCommands(String(run));
      expect(commands, run).not.toEqual([]);
      for (const { command, name: script } of commands) if (command === "script") expect(scripts, run).toHaveProperty([String(script)]);
    }
  });

  it("the CI job installs with npm ci and runs the README's test command", async () => {
    expect(readmeTest).toBe("npm test");
    const runs = (await checkWorkflow(join(folder, "ci.yml"))).steps.map((step) => step.run ?? "");
    expect(runs).toContain("npm ci --no-audit --no-fund");
    expect(runs.some((run) => npmCommands(run).some(({ name }) => `npm ${name}` === readmeTest))).toBe(true);
  });

  it("the deploy job builds (the approval gate), deploys, archives into the store, verifies it there, checks the live text and names the reviews due, in that order", async () => {
    const { steps } = await checkWorkflow(join(folder, "deploy.yml"));
    const named = steps.flatMap(({ run }) => npmCommands(run ?? "").map(({ command, name }) => name ?? command));
    expect(named).toEqual(["ci", "build", "deploy:pages", "records:capture", "records:verify", "records:check", "reviews"]);
    // An overdue review never fails the deploy: the step goes on, and its report goes to the summary.
    const reviews = steps.find((step) => step.run?.includes("reviews"))!.run!;
    expect(reviews).toMatch(/npm run --silent reviews -- --report reviews\.md .*\|\| true/);
    expect(reviews).toContain('cat reviews.md >> "$GITHUB_STEP_SUMMARY"');
  });

  it.each(files)("%s: every action is pinned by a full commit, with the tag it is in a comment", (name) => {
    const text = readFileSync(join(folder, name), "utf8");
    const uses = text.split("\n").filter((line) => /^\s*(- )?uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it.each(files)("%s: permissions are least: none by default, and no job may write contents", (name) => {
    const workflow = parse(readFileSync(join(folder, name), "utf8")) as {
      permissions?: unknown;
      jobs: Record<string, { permissions?: Record<string, string> }>;
    };
    expect(workflow.permissions).toBeDefined();
    expect(JSON.stringify(workflow)).not.toMatch(/write-all|read-all/);
    for (const [job, { permissions = {} }] of Object.entries(workflow.jobs)) {
      const writes = Object.entries(permissions).filter(([, level]) => level === "write");
      expect(
        writes.map(([scope]) => scope),
        job,
      ).toEqual(WRITES[name]?.[job] ?? []);
    }
  });

  it.each(files)("%s: secrets reach steps only through env, never a command line", async (name) => {
    const { steps } = await checkWorkflow(join(folder, name));
    for (const { run } of steps) expect(run ?? "").not.toMatch(/secrets\./);
  });

  it.each(["deploy.yml", "records-daily.yml"])("%s runs one at a time with the other, never cancelling one halfway", (name) => {
    const workflow = parse(readFileSync(join(folder, name), "utf8")) as {
      concurrency: { group: string; "cancel-in-progress": boolean };
    };
    expect(workflow.concurrency).toEqual({ group: "deploy-production", "cancel-in-progress": false });
  });

  it("the daily archive runs on a schedule and by hand, builds, captures, checks, and only its report and reviews jobs write issues", async () => {
    const workflow = parse(readFileSync(join(folder, "records-daily.yml"), "utf8")) as {
      on: { schedule: Array<{ cron: string }>; workflow_dispatch: unknown };
      jobs: Record<string, { needs?: string; if?: string; permissions?: Record<string, string>; outputs?: Record<string, string> }>;
    };
    expect(workflow.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }]);
    expect(workflow.on).toHaveProperty("workflow_dispatch");
    const { steps } = await checkWorkflow(join(folder, "records-daily.yml"));
    const named = (job: string) =>
      steps.filter((step) => step.job === job).flatMap(({ run }) => npmCommands(run ?? "").map(({ command, name }) => name ?? command));
    expect(named("capture")).toEqual(["ci", "build", "records:capture", "records:check"]);
    expect(named("report")).toEqual(["ci", "records:report-drift"]);
    expect(named("reviews")).toEqual(["ci", "reviews"]);
    const runs = steps.map((step) => step.run ?? "");
    expect(runs).toContain('npm run records:capture -- --origin "$PUBLIC_SITE_URL" --kind scheduled');
    expect(runs.find((run) => run.includes("records:check"))).toMatch(/--origin "\$PUBLIC_SITE_URL" --report \S+/);
    const issues = Object.entries(workflow.jobs).filter(([, job]) => job.permissions?.issues === "write");
    expect(issues.map(([job]) => job)).toEqual(["report", "reviews"]);
    expect(runs).toContain("npm run reviews -- --remind");
    expect(workflow.jobs.report).toMatchObject({ needs: "capture", if: expect.stringContaining("needs.capture.outputs.drift == 'true'") });
    expect(workflow.jobs.capture!.outputs).toHaveProperty("drift");
    // The same actions, at the same commits, as the deploy (one set of pins to review and update).
    const deployUses = new Set((await checkWorkflow(join(folder, "deploy.yml"))).steps.flatMap((step) => step.uses ?? []));
    for (const step of steps.filter((step) => step.uses)) expect(deployUses, step.uses).toContain(step.uses);
  });

  it("a broken copy of a workflow fails with the parser's own message", async () => {
    const text = readFileSync(join(folder, "ci.yml"), "utf8");
    expect(text).toContain("    runs-on: ubuntu-latest\n");
    const broken = await checkWorkflow("ci.yml", text.replace("    runs-on: ubuntu-latest\n", "    runs_on: ubuntu-latest\n"));
    expect(broken.problems).toContain("parser: ci.yml (Line: 25, Col: 5): Unexpected value 'runs_on'");
  });

  it("a copy the parser accepts but actionlint does not fails with actionlint's message", async () => {
    const text = readFileSync(join(folder, "ci.yml"), "utf8");
    const broken = await checkWorkflow("ci.yml", text.replace("ci-${{ github.ref }}", "ci-${{ github.reff }}"));
    expect(broken.problems.filter((problem) => problem.startsWith("parser:"))).toEqual([]);
    expect(broken.problems.join("\n")).toMatch(/^actionlint: ci\.yml:\d+:\d+: property "reff" is not defined/m);
  });
});
