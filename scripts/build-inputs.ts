/** Which build the tools mean (dist/, or SITE_OUT_DIR for a test variant), and whether it is current. */
import { join } from "node:path";
import { buildFingerprint as fingerprintOf, buildIsCurrentIn } from "../lib/fingerprint.ts";
import { projectRoot } from "../lib/root.ts";

export { projectRoot };
/** The build's folder: dist/, or another for a test variant (SITE_OUT_DIR, relative to the project). */
export const outDir = join(projectRoot, process.env.SITE_OUT_DIR ?? "dist");

export const buildFingerprint = (options: { preview: boolean }) => fingerprintOf(projectRoot, options);

export const buildIsCurrent = (options = { preview: false }, dir = outDir) => buildIsCurrentIn(projectRoot, dir, options);

/**
 * Set by a test run (scripts/test-all.ts, the heavy suites' global setup) to the build it made before
 * any suite started: the suites read it, serve it and copy it while others run beside them, so
 * ensure-build refuses to rewrite it under them (a rewrite is what an nginx check saw half-made).
 */
export const SETTLED_BUILD = "SITE_BUILD_SETTLED";
