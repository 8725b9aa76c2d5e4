/**
 * The Astro CLI with telemetry off (`npm run build`, `dev`, `check`). An inline `VAR=1 astro …` in a
 * package.json script does not work in Windows' cmd.exe; this works wherever Node runs.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../node_modules/astro/bin/astro.mjs", import.meta.url));
const command = process.argv[2];
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: {
    ...process.env,
    ASTRO_TELEMETRY_DISABLED: "1",
    // A build started from a test runner inherits NODE_ENV=test, and React's development build would ship.
    ...(command === "build" ? { NODE_ENV: "production" } : {}),
  },
});
process.exit(result.status ?? 1);
