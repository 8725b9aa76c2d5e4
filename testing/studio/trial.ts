/**
 * A throw-away clone of this project with the loopback studio running on it, in this process: for the
 * studio's tests, its benchmark and its screenshots. Nothing here runs when an editor uses the studio.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../../lib/root.ts";
import { git } from "../../studio/git.ts";
import { startStudio } from "../../studio/start.ts";

/** A clone of this repository's HEAD as `main` in a new temporary folder, sharing this project's node_modules. */
export function throwawayProject(): { project: string; remove(): void } {
  const scratch = mkdtempSync(join(tmpdir(), "studio-trial-"));
  const project = join(scratch, "project");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", projectRoot, project]);
  git(project, "checkout", "--quiet", "-B", "main");
  symlinkSync(join(projectRoot, "node_modules"), join(project, "node_modules"), "dir");
  // The project's .gitignore names the folder node_modules/, which a symlink is not.
  appendFileSync(join(project, ".git", "info", "exclude"), "/node_modules\n");
  // Preview builds are kept by tree, the same in every clone: all throw-away studios share this project's.
  mkdirSync(join(projectRoot, ".studio", "builds"), { recursive: true });
  mkdirSync(join(project, ".studio"));
  symlinkSync(join(projectRoot, ".studio", "builds"), join(project, ".studio", "builds"), "dir");
  return { project, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

export interface StudioTrial {
  project: string;
  /** The studio's own clone inside it. */
  repo: string;
  origin: string;
  stop(): Promise<void>;
}

/** The loopback studio on a throw-away clone, as `npm run studio` starts it, on a port the OS picks. */
export async function studioOnThrowawayClone(): Promise<StudioTrial> {
  const { project, remove } = throwawayProject();
  const studio = await startStudio({ mode: "loopback", port: 0 }, project);
  return {
    project,
    repo: studio.repo,
    origin: studio.url,
    async stop() {
      await studio.stop();
      remove();
    },
  };
}
