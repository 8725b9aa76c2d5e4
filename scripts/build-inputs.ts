/** A fingerprint of everything the build reads, so `npm start` and `npm test` rebuild only when it changed. */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const projectRoot = new URL("..", import.meta.url).pathname;
/** The build's folder: dist/, or another for a test variant (SITE_OUT_DIR, relative to the project). */
export const outDir = join(projectRoot, process.env.SITE_OUT_DIR ?? "dist");
export const stampFile = join(outDir, ".build-inputs");
// approvals/: the production build passes or fails on the ledger, and the preview marks drafts by it.
const inputs = [
  "src",
  "integrations",
  "public",
  "approvals",
  "astro.config.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "scripts/postbuild.ts",
];

function walk(path: string, out: string[]) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), out);
  else out.push(path);
}

/** `env`: the environment of the build in question (a preview is built with APPROVAL_PREVIEW=1). */
export function buildFingerprint(env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash("sha256");
  const files: string[] = [];
  for (const input of inputs) walk(join(projectRoot, input), files);
  for (const file of files) hash.update(relative(projectRoot, file)).update("\0").update(readFileSync(file)).update("\0");
  // The site configuration's overrides change the output too, and so does building it as a preview.
  for (const [name, value] of Object.entries(env)
    .filter(([n]) => n.startsWith("PUBLIC_") || n === "APPROVAL_PREVIEW")
    .sort())
    hash.update(`${name}=${value}\0`);
  return hash.digest("hex");
}

export function buildIsCurrent(): boolean {
  // The static hosts' folder is written by the same build, just before the fingerprint.
  if (!existsSync(join(`${outDir}-static`, "_headers"))) return false;
  return existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === buildFingerprint();
}
