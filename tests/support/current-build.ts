/**
 * Global setup of the heavy project: dist/ current before any file starts. Its suites run two at a
 * time, and some run `npm run archive`, whose first step rebuilds a stale dist/: two such rebuilds at
 * once wrote over each other's files. `npm test` builds first, so this is a no-op there; it matters
 * when the project runs alone (`npx vitest run --project heavy`, `npm run test:changed`).
 */
import { spawnSync } from "node:child_process";
import { projectRoot } from "../../lib/root.ts";

export default function setup() {
  const built = spawnSync(process.execPath, ["scripts/ensure-build.ts"], { cwd: projectRoot, stdio: "inherit" });
  if (built.status !== 0) throw new Error("dist/ could not be built; see above");
}
