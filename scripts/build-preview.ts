/**
 * `npm run build:preview`: the build for reviewers, in dist-preview/ (never dist/). Unapproved text
 * is built anyway and every such page carries a "Draft: not approved for publication" banner and
 * `noindex`. `npm run start:preview` builds it when stale and serves it (PORT, default 4322).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildFingerprint, projectRoot } from "./build-inputs.ts";
import { createSiteServer } from "../server/app.ts";

export const PREVIEW_DIR = "dist-preview";
const env = { ...process.env, SITE_OUT_DIR: PREVIEW_DIR, APPROVAL_PREVIEW: "1" };

/** Whether dist-preview/ was built from the current sources (the same fingerprint as dist/ uses). */
export function previewIsCurrent(): boolean {
  const stamp = join(projectRoot, PREVIEW_DIR, ".build-inputs");
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === buildFingerprint(env);
}

export function buildPreview(): number {
  for (const script of ["scripts/astro.ts", "scripts/postbuild.ts"]) {
    const args = script === "scripts/astro.ts" ? [script, "build"] : [script];
    const result = spawnSync(process.execPath, args, { cwd: projectRoot, stdio: "inherit", env });
    if (result.status !== 0) return result.status ?? 1;
  }
  return 0;
}

if (import.meta.main) {
  const serve = process.argv.includes("--serve");
  const status = serve && previewIsCurrent() ? 0 : buildPreview();
  if (status !== 0) process.exit(status);
  if (serve) {
    const port = Number(process.env.PORT ?? 4322);
    const host = process.env.HOST ?? "localhost";
    const server = createSiteServer({ root: join(projectRoot, PREVIEW_DIR) });
    server.on("error", (error) => {
      console.error(`preview server: ${error.message}`);
      process.exit(1);
    });
    server.listen(port, host, () => console.log(`Serving the preview build (${PREVIEW_DIR}/, drafts marked) at http://${host}:${port}`));
  }
}
