/**
 * `npm run build:preview`: the build for reviewers, in dist-preview/ (never dist/). Unapproved text
 * is built anyway and every such page carries a "Draft: not approved for publication" banner and
 * `noindex`. `npm run start:preview` builds it when stale and serves it (PORT, default 4322).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { buildIsCurrent, projectRoot } from "./build-inputs.ts";
import { createSiteServer } from "../server/app.ts";

export const PREVIEW_DIR = "dist-preview";
const env = { ...process.env, SITE_OUT_DIR: PREVIEW_DIR };

/** Whether dist-preview/ was built from the current sources (the same fingerprint as dist/ uses). */
export const previewIsCurrent = () => buildIsCurrent({ preview: true }, join(projectRoot, PREVIEW_DIR));

/** `astro build` with the preview configuration (astro.preview.config.mjs). */
export function buildPreview(): number {
  const args = ["scripts/astro.ts", "build", "--config", "astro.preview.config.mjs"];
  return spawnSync(process.execPath, args, { cwd: projectRoot, stdio: "inherit", env }).status ?? 1;
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
