/**
 * Preview builds of a revision (`astro build` with unapproved text marked as drafts), made from a
 * `git archive` of it in `.studio/builds/<tree>/` and kept: the principal's review, the editor's View
 * Preview and the publish gate all read them. Keyed by tree, so a merge commit whose tree is the
 * branch's (main did not move) reuses the branch's build. One build at a time.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { PREVIEW_TEXTS_FILE } from "../../integrations/approval/ledger.ts";
import { git } from "../git.ts";

const run = promisify(execFile);

export type PageTexts = Record<string, { sha256: string; text: string }>;

export interface Build {
  tree: string;
  /** The archived sources of the revision (for its documents' titles). */
  folder: string;
  /** The built pages (dist-preview). */
  site: string;
  pages: PageTexts;
}

const building = new Map<string, Promise<Build>>();
/** One build at a time: two at once on a small machine take longer than one after the other. */
let lastBuild: Promise<unknown> = Promise.resolve();

export const treeOf = (repo: string, revision: string) => git(repo, "rev-parse", `${revision}^{tree}`);

/** The preview build of a revision (made once per tree). */
export function buildOf(root: string, repo: string, revision: string): Promise<Build> {
  const tree = treeOf(repo, revision);
  const folder = join(root, ".studio", "builds", tree);
  const site = join(folder, "dist-preview");
  const texts = join(site, PREVIEW_TEXTS_FILE);
  const read = (): Build => ({ tree, folder, site, pages: (JSON.parse(readFileSync(texts, "utf8")) as { pages: PageTexts }).pages });
  if (existsSync(texts)) return Promise.resolve(read());
  let build = building.get(tree);
  if (!build) {
    const turn = lastBuild.then(() => (existsSync(texts) ? undefined : make(root, repo, tree, folder)));
    lastBuild = turn.catch(() => undefined);
    build = turn.then(read);
    building.set(tree, build);
    void build.finally(() => building.delete(tree)).catch(() => undefined);
  }
  return build;
}

/** Builds in a folder of its own, moved into place when complete: a half-made build is never read. */
async function make(root: string, repo: string, tree: string, folder: string): Promise<void> {
  const work = `${folder}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const done = join(folder, "dist-preview", PREVIEW_TEXTS_FILE);
  mkdirSync(work, { recursive: true });
  try {
    await run("sh", ["-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "archive", repo, tree, work]);
    symlinkSync(join(root, "node_modules"), join(work, "node_modules"), "dir");
    await run(process.execPath, ["scripts/astro.ts", "build", "--config", "astro.preview.config.mjs"], {
      cwd: work,
      env: { ...process.env, SITE_OUT_DIR: "dist-preview" },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(
        `the preview build of tree ${tree.slice(0, 7)} failed:\n${`${error.stdout ?? ""}${error.stderr ?? ""}`.slice(-3000)}`,
        { cause: error },
      );
    });
    // Another studio sharing the folder (the tests' throw-away clones) may have built the same tree meanwhile: the first stays.
    if (!existsSync(done)) {
      rmSync(folder, { recursive: true, force: true });
      renameSync(work, folder);
    }
  } catch (error) {
    if (!existsSync(done)) throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
