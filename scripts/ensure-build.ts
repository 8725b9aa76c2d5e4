/**
 * Builds dist/ (or SITE_OUT_DIR) when it is missing or older than its inputs (used by `npm start` and
 * `npm test`). `--preview` makes the reviewers' build (astro.preview.config.mjs), drafts marked. In a
 * test run that has built it (SITE_BUILD_SETTLED names it), a stale build is an error, never rebuilt.
 */
import { spawnSync } from "node:child_process";
import { relative } from "node:path";
import { BUILD_INPUTS } from "../lib/fingerprint.ts";
import { buildIsCurrent, outDir, projectRoot, SETTLED_BUILD } from "./build-inputs.ts";

const preview = process.argv.includes("--preview");
const name = `${relative(projectRoot, outDir)}/`;
if (buildIsCurrent({ preview })) {
  console.log(`${name} is up to date`);
} else if (process.env[SETTLED_BUILD] === outDir) {
  // A test run built it once and its suites are reading it: rebuilding would hand them half-made files.
  const changed = spawnSync("git", ["status", "--porcelain", "--", ...BUILD_INPUTS], { cwd: projectRoot, encoding: "utf8" }).stdout?.trim();
  console.error(
    `${name} went stale during the test run that built it, while its suites read it: it is not rebuilt under them. ` +
      `A suite changed what the build reads${changed ? `:\n${changed}` : " (no change git can see: a file outside git, or an environment variable PUBLIC_*)"}`,
  );
  process.exit(1);
} else {
  console.log(`${name} is missing or stale: building`);
  const args = ["scripts/astro.ts", "build", ...(preview ? ["--config", "astro.preview.config.mjs"] : [])];
  const result = spawnSync(process.execPath, args, { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
