/** A fingerprint of everything the build reads, so `npm start` and `npm test` rebuild only when it changed. */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { sha256Hex } from "./hash.ts";

/** Written last by the publish integration, in the build's folder. */
export const STAMP_FILE = ".build-inputs";
// approvals/: the production build passes or fails on the ledger, and the preview marks drafts by it.
export const BUILD_INPUTS = [
  "src",
  "integrations",
  // The approval gate, the approved text and the HTML reading the integrations call (lib/approval, lib/html.ts, …).
  "lib",
  "public",
  "approvals",
  "astro.config.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];

function walk(path: string, out: string[]) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), out);
  else out.push(path);
}

/** `preview`: the reviewers' build (astro.preview.config.mjs), whose output differs for the same sources. */
export function buildFingerprint(root: string, { preview }: { preview: boolean }, env: NodeJS.ProcessEnv = process.env): string {
  const files: string[] = [];
  for (const input of BUILD_INPUTS) walk(join(root, input), files);
  const parts = files.map((file) => `${relative(root, file)}\0${sha256Hex(readFileSync(file))}\0`);
  // The site configuration's overrides change the output too, and so does building it as a preview.
  for (const [name, value] of Object.entries(env)
    .filter(([n]) => n.startsWith("PUBLIC_"))
    .sort())
    parts.push(`${name}=${value}\0`);
  parts.push(`preview=${preview}`);
  return sha256Hex(parts.join(""));
}

/** Whether the build in `dir` was made from the sources as they are now. */
export function buildIsCurrentIn(root: string, dir: string, { preview }: { preview: boolean }): boolean {
  // The static hosts' folder is written by the same build, just before the fingerprint (not for a preview).
  if (!preview && !existsSync(join(`${dir}-static`, "_headers"))) return false;
  const stamp = join(dir, STAMP_FILE);
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === buildFingerprint(root, { preview });
}
