/**
 * Global setup of the heavy project: dist/ current before any file starts, and never rewritten while
 * they run. Its suites read it, serve it and copy it two files at a time: a rebuild under them would
 * hand one a half-made build (nginx over a copy taken without index.html.br answers gzip where br is
 * due), and two rebuilds at once wrote over each other's files (tried). `npm test` builds first and names the
 * build in SITE_BUILD_SETTLED; this does the same when the project runs alone (`npx vitest run
 * --project heavy`, `npm run test:changed`). Every process the suites start inherits it, and
 * scripts/ensure-build.ts then refuses, naming what changed, to rebuild that build (`npm run
 * archive` calls it); a copy of the project builds its own.
 */
import { spawnSync } from "node:child_process";
import { outDir, SETTLED_BUILD } from "../../scripts/build-inputs.ts";
import { projectRoot } from "../../lib/root.ts";

export default function setup() {
  const built = spawnSync(process.execPath, ["scripts/ensure-build.ts"], { cwd: projectRoot, stdio: "inherit" });
  if (built.status !== 0) throw new Error("dist/ could not be built; see above");
  process.env[SETTLED_BUILD] = outDir;
}
