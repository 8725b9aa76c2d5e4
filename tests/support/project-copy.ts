/**
 * A copy of the project in a temporary folder, to build and change without touching the work tree:
 * what a build reads (sources, approvals, configuration, the scripts, lib/ and the server), with the
 * project's node_modules linked in. Returns the copy's path.
 */
import { cpSync, existsSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BUILD_INPUTS = [
  "src",
  "integrations",
  "public",
  "approvals",
  "scripts",
  "lib",
  "server",
  "astro.config.mjs",
  "astro.preview.config.mjs",
  "tsconfig.json",
  "package.json",
];

export function copyProject(prefix: string): string {
  const project = mkdtempSync(join(tmpdir(), prefix));
  for (const entry of BUILD_INPUTS) if (existsSync(entry)) cpSync(entry, join(project, entry), { recursive: true });
  symlinkSync(join(process.cwd(), "node_modules"), join(project, "node_modules"));
  return project;
}
