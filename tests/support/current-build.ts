/**
 * Global setup of the heavy project: dist/ current before any file starts. Some of its suites run
 * `npm run archive`, whose first step rebuilds a stale dist/; when two files ran at once (tried), two
 * such rebuilds wrote over each other's files. `npm test` builds first, so this is a no-op there; it
 * matters when the project runs alone (`npx vitest run --project heavy`, `npm run test:changed`) or
 * with more workers.
 */
import { spawnSync } from "node:child_process";
import { projectRoot } from "../../lib/root.ts";

export default function setup() {
  const built = spawnSync(process.execPath, ["scripts/ensure-build.ts"], { cwd: projectRoot, stdio: "inherit" });
  if (built.status !== 0) throw new Error("dist/ could not be built; see above");
}
