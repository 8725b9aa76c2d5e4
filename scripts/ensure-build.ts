/**
 * Builds dist/ (or SITE_OUT_DIR) when it is missing or older than its inputs (used by `npm start` and
 * `npm test`). `--preview` makes the reviewers' build (astro.preview.config.mjs), drafts marked.
 */
import { spawnSync } from "node:child_process";
import { relative } from "node:path";
import { buildIsCurrent, outDir, projectRoot } from "./build-inputs.ts";

const preview = process.argv.includes("--preview");
const name = `${relative(projectRoot, outDir)}/`;
if (buildIsCurrent({ preview })) {
  console.log(`${name} is up to date`);
} else {
  console.log(`${name} is missing or stale: building`);
  const args = ["scripts/astro.ts", "build", ...(preview ? ["--config", "astro.preview.config.mjs"] : [])];
  const result = spawnSync(process.execPath, args, { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
