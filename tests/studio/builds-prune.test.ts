/**
 * The preview builds' bound (studio/workflow/builds.ts): main's build and each open entry's are kept,
 * of the others the KEEP_RECENT last used; a folder left by a build interrupted in a process that no
 * longer runs is removed, one of a build under way in a running process is not. The repository is a
 * real one (its refs decide what is open); the builds are folders named by tree as the studio names them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildsFolder, KEEP_RECENT, pruneBuilds } from "../../studio/workflow/builds.ts";

let root = "";
let repo = "";
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();

function commitOn(branch: string, file: string, text: string): string {
  git("checkout", "--quiet", "-B", branch, "main");
  writeFileSync(join(repo, file), text);
  git("add", file);
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", text);
  git("checkout", "--quiet", "main");
  return git("rev-parse", `${branch}^{tree}`);
}

/** A complete build's folder, last used `minutesAgo`. */
function build(name: string, minutesAgo: number) {
  const folder = join(buildsFolder(root), name);
  mkdirSync(join(folder, "dist-preview"), { recursive: true });
  writeFileSync(join(folder, "dist-preview", "index.html"), "<p>built</p>");
  const at = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(folder, at, at);
}

const fakeTree = (n: number) => n.toString(16).padStart(40, "0");

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "builds-prune-"));
  repo = join(root, "repo");
  mkdirSync(repo);
  git("init", "--quiet", "--initial-branch=main");
  writeFileSync(join(repo, "hero.yaml"), "headline: Hello\n");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "start");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the preview builds' bound", () => {
  it("keeps main's and the open entries' builds, however old, and the last used of the others", () => {
    const main = git("rev-parse", "main^{tree}");
    const open = [commitOn("cms/landing/hero", "hero.yaml", "headline: One\n"), commitOn("cms/landing/features", "f.yaml", "a: 1\n")];
    build(main, 600);
    for (const tree of open) build(tree, 500);
    // Fifteen closed ones, the n-th used n minutes ago.
    for (let n = 1; n <= 15; n++) build(fakeTree(n), n);
    const removed = pruneBuilds(root, repo);
    expect(removed.sort()).toEqual([11, 12, 13, 14, 15].map(fakeTree));
    const left = readdirSync(buildsFolder(root)).sort();
    expect(left).toEqual([main, ...open, ...Array.from({ length: KEEP_RECENT }, (_, i) => fakeTree(i + 1))].sort());
  });

  it("removes a folder left by a build interrupted in a process no longer running, not one under way", () => {
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid;
    const interrupted = `${fakeTree(1)}.tmp-${ended}-0a1b2c3d`;
    const underWay = `${fakeTree(2)}.tmp-${process.pid}-0a1b2c3d`;
    mkdirSync(join(buildsFolder(root), interrupted), { recursive: true });
    mkdirSync(join(buildsFolder(root), underWay), { recursive: true });
    expect(pruneBuilds(root, repo)).toEqual([interrupted]);
    expect(readdirSync(buildsFolder(root))).toEqual([underWay]);
  });

  it("leaves a folder that is not a build alone", () => {
    mkdirSync(join(buildsFolder(root), "notes"), { recursive: true });
    build(fakeTree(1), 1);
    expect(pruneBuilds(root, repo)).toEqual([]);
    expect(readdirSync(buildsFolder(root)).sort()).toEqual([fakeTree(1), "notes"].sort());
  });
});
