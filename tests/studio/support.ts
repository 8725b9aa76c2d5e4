/** A throw-away clone of this project with the studio running on it, and Chromium to drive the admin. */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { chromeArgs, findChrome } from "../../scripts/lib/chrome.ts";
import { projectRoot } from "../../scripts/lib/root.ts";
import { git, prepareClone } from "../../studio/git.ts";
import { startDecapServer, type DecapServer } from "../../studio/decap-server.ts";
import { listen } from "../../studio/listen.ts";
import { publishRules } from "../../studio/publish.ts";
import { createStudioServer } from "../../studio/server.ts";

export interface StudioRun {
  /** The throw-away project (a clone of this repository's HEAD). */
  project: string;
  /** The studio's own clone inside it. */
  repo: string;
  origin: string;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startStudioOnClone(): Promise<StudioRun> {
  const project = join(mkdtempSync(join(tmpdir(), "studio-e2e-")), "project");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", projectRoot, project]);
  git(project, "checkout", "--quiet", "-B", "main");
  symlinkSync(join(projectRoot, "node_modules"), join(project, "node_modules"), "dir");
  // The project's .gitignore names the folder node_modules/, which a symlink is not.
  appendFileSync(join(project, ".git", "info", "exclude"), "/node_modules\n");
  const repo = prepareClone(project);
  const decap: DecapServer = await startDecapServer(repo);
  const server: Server = createStudioServer({ root: project, repo, decapUrl: decap.url, ...publishRules(project, repo) });
  const origin = `http://127.0.0.1:${await listen(server, 0)}`;
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  return {
    project,
    repo,
    origin,
    browser,
    async stop() {
      await browser.close();
      await new Promise((done) => server.close(done));
      await decap.stop();
      rmSync(join(project, ".."), { recursive: true, force: true });
    },
  };
}
