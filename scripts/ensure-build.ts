/** Builds dist/ when it is missing or older than its inputs (used by `npm start` and `npm test`). */
import { spawnSync } from "node:child_process";
import { buildIsCurrent, projectRoot } from "./build-inputs.ts";

if (buildIsCurrent()) {
  console.log("dist/ is up to date");
} else {
  console.log("dist/ is missing or stale: building");
  const result = spawnSync("npm", ["run", "build"], { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
