/**
 * The floors of the code (lib/README.md), held by ESLint (eslint-plugin-import-x: no-restricted-paths
 * and no-cycle, eslint.config.js): an import may go down or sideways, never up; product code never
 * imports what exists for tests, demos and benches; no module imports itself round a cycle. Each row
 * lints a file as if it stood at that path (nothing is written) and names the rule that refuses it.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function refusals(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId?.startsWith("import-x/")).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the floors of the code", () => {
  it.each([
    // lib/ is the ground floor: nothing above it
    ["lib/x.ts", 'import { capture } from "../integrations/approval/index.ts";', /lib\/ is the ground floor/],
    ["lib/records/x.ts", 'import { createSiteServer } from "../../server/app.ts";', /lib\/ is the ground floor/],
    ["lib/x.ts", 'import { gitApi } from "../studio/workflow/api.ts";', /lib\/ is the ground floor/],
    ["lib/x.ts", 'import { projectRoot } from "../scripts/build-inputs.ts";', /lib\/ is the ground floor/],
    ["lib/x.ts", 'import { SLOW_PHONE } from "../bench/budgets.ts";', /lib\/ is the ground floor/],
    ["lib/x.ts", 'import { copyProject } from "../tests/support/project-copy.ts";', /lib\/ is the ground floor/],
    ["lib/x.ts", 'import { throwawayProject } from "../testing/studio/trial.ts";', /lib\/ is the ground floor/],
    // the build's hooks call lib/ and src/, nothing above
    ["integrations/publish/x.ts", 'import { gitApi } from "../../studio/workflow/api.ts";', /integrations\/ are the build's hooks/],
    ["integrations/x.ts", 'import { createSiteServer } from "../server/app.ts";', /integrations\/ are the build's hooks/],
    // the runtimes never import the tools, the benches or the tests
    ["server/x.ts", 'import { projectRoot } from "../scripts/build-inputs.ts";', /The runtimes import lib\//],
    ["studio/x.ts", 'import { startDemoIdp } from "../testing/demo/idp.ts";', /The runtimes import lib\//],
    // product code never imports test scaffolding
    ["scripts/x.ts", 'import { throwawayProject } from "../testing/studio/trial.ts";', /Product code never imports/],
    ["src/build/x.ts", 'import { copyProject } from "../../tests/support/project-copy.ts";', /Product code never imports/],
    // benches and demos never import the tests
    ["bench/x.ts", 'import { copyProject } from "../tests/support/project-copy.ts";', /never tests\//],
    ["testing/x.ts", 'import { copyProject } from "../tests/support/project-copy.ts";', /never tests\//],
  ])("refuses in %s: %s", async (filePath, code, message) => {
    const found = await refusals(filePath, `${code}\nexport const used = 1;\n`);
    expect(found.join("\n")).toMatch(/^import-x\/no-restricted-paths: /);
    expect(found.join("\n")).toMatch(message);
  });

  it("refuses a cycle, naming the rule", async () => {
    // store.ts imports store-rules.ts: store-rules.ts importing store.ts back would close a cycle.
    const found = await refusals(
      "lib/records/store-rules.ts",
      'import { FolderStore } from "./store.ts";\nexport const a = FolderStore;\n',
    );
    expect(found).toContainEqual(expect.stringMatching(/^import-x\/no-cycle: Dependency cycle detected/));
  });

  it.each([
    // down and sideways
    ["studio/x.ts", 'import { parseLedger } from "../lib/approval/ledger.ts";'],
    ["integrations/x.ts", 'import { parseHtml } from "../lib/html.ts";'],
    ["scripts/x.ts", 'import { createSiteServer } from "../server/app.ts";'],
    ["bench/x.ts", 'import { throwawayProject } from "../testing/studio/trial.ts";'],
    ["testing/x.ts", 'import { createSiteServer } from "../server/app.ts";'],
    ["tests/unit/x.test.ts", 'import { throwawayProject } from "../../testing/studio/trial.ts";'],
  ])("accepts in %s: %s", async (filePath, code) => {
    expect(await refusals(filePath, `${code}\nexport const used = 1;\n`)).toEqual([]);
  });

  it("finds no import that goes up and no cycle in the project as it is", async () => {
    const results = await eslint.lintFiles(["lib", "integrations", "server", "studio", "scripts", "bench", "testing", "src"]);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => /^import-x\/(no-restricted-paths|no-cycle)$/.test(m.ruleId ?? "")).map((m) => `${r.filePath}: ${m.message}`),
    );
    expect(found).toEqual([]);
  }, 180_000);
});
