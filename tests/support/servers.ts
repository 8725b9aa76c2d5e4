/**
 * Playwright's global setup: the two builds the browser tests visit, each served by the project's own
 * server on a loopback port the OS picks (two runs side by side, or a developer's `npm start`, can
 * never take each other's port). Their origins reach the workers through the environment, where
 * playwright.config.ts reads them; the function returned stops both servers.
 */
import { spawnSync } from "node:child_process";
import { serveBuild } from "../../scripts/lib/serve-build.ts";
import { CONFIGURED_BUILD_ENV } from "./configured-build.ts";
import { projectRoot } from "../../lib/root.ts";

const root = projectRoot;

export default async function globalSetup() {
  // The configured build is made on demand (cached by its fingerprint, as npm start caches dist/).
  const built = spawnSync(process.execPath, ["scripts/ensure-build.ts", "--preview"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...CONFIGURED_BUILD_ENV },
  });
  if (built.status !== 0) throw new Error(`the configured build (${CONFIGURED_BUILD_ENV.SITE_OUT_DIR}/) failed; see above`);
  const started = await Promise.allSettled([serveBuild(), serveBuild(CONFIGURED_BUILD_ENV)]);
  const [site, configured] = started.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : undefined));
  if (!site || !configured) {
    // The one that did start is stopped, and the run fails with what the other printed.
    await Promise.all([site?.stop(), configured?.stop()]);
    const failed = started.find((outcome) => outcome.status === "rejected")!;
    throw new Error(`a test server did not start: ${String(failed.reason instanceof Error ? failed.reason.message : failed.reason)}`);
  }
  process.env.E2E_BASE_URL = site.origin;
  process.env.E2E_CONFIGURED_BASE_URL = configured.origin;
  return async () => {
    await Promise.all([site.stop(), configured.stop()]);
  };
}
