/**
 * No preview build that cannot change what the studio reads (decision 0053): a revision whose tree differs
 * from a built one only in `approvals/` (here, the principal's approval commit itself, made by the
 * studio's own code) is answered with that build, made once. Proven against two real builds of the two
 * trees: every file the same byte for byte, the pages once their draft marks are taken off included;
 * the marks alone differ, and View Preview (`exact`) gets the revision's own build with its own marks.
 *
 * And the build worker's builds (decision 0054) are those of `astro build` in a process of its own: the
 * worker's second build (a warm one) against the command line's build of the same tree, byte for byte.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DRAFT_CSS,
  DRAFT_NOTICE,
  LEDGER_FILE,
  parseLedger,
  recordApproval,
  serializeLedger,
  unmarkDraft,
} from "../../lib/approval/ledger.ts";
import { STAMP_FILE } from "../../lib/fingerprint.ts";
import { recordApprovalCommit } from "../../studio/workflow/approve.ts";
import { buildOf, buildsFolder, pagesKeyOf, treeOf } from "../../studio/workflow/builds.ts";
import { throwawayProject } from "../../testing/studio/trial.ts";
import { projectRoot } from "../../lib/root.ts";
import { servedBuilds } from "../support/build-service.ts";

let project = "";
let remove = () => {};
const branch = "cms/landing/hero";
const git = (...args: string[]) => execFileSync("git", args, { cwd: project, encoding: "utf8" }).trim();

/** Every file under a folder, by its path in it. */
function files(folder: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.set(relative(folder, path), readFileSync(path));
    }
  };
  walk(folder);
  return found;
}

let edited = "";
let approved = "";
/** The approval commit's own build, made by the worker after the edit's: a warm build. */
let warm = "";

beforeAll(() => {
  ({ project, remove } = throwawayProject());
  git("checkout", "--quiet", "-b", branch);
  const hero = join(project, "src/content/landing/hero.yaml");
  // Words never built before in this run: the edit's build is made here.
  writeFileSync(
    hero,
    readFileSync(hero, "utf8").replace(/^headline: .*$/m, `headline: Reused builds, checked ${process.pid}-${Date.now()}`),
  );
  git("-c", "user.name=Erin", "-c", "user.email=erin@example.com", "commit", "--quiet", "-am", "Edit the headline");
  edited = git("rev-parse", "HEAD");
  git("checkout", "--quiet", "main");
});
afterAll(() => remove());

describe("a preview build reused for a tree that differs only in approvals/", () => {
  it("answers the approval commit with the edit's build, whose files are its own byte for byte but for the draft marks", async () => {
    const mine = await buildOf(project, project, edited);
    const landing = readFileSync(join(mine.site, "index.html"), "utf8");
    expect(landing).toContain(DRAFT_NOTICE);
    // Built, as every studio of the suites builds, by the run's one shared worker (decision 0060), not a worker of its own.
    const served = await servedBuilds();
    expect(
      served.filter((work) => work.startsWith(`${mine.folder}.tmp-`)),
      "the run's shared build worker built it",
    ).toHaveLength(1);

    const approver = { name: "Pat Principal", registration: "Series 24", email: "pat@principal.invalid" };
    ({ commit: approved } = await recordApprovalCommit(project, project, branch, edited, approver));
    const changed = git("diff", "--name-only", edited, approved).split("\n");
    expect(changed.length).toBeGreaterThan(0);
    expect(
      changed.every((path) => path.startsWith("approvals/")),
      changed.join(", "),
    ).toBe(true);

    // The studio's answer for the approval commit: the edit's build, and no build made for it.
    const before = readdirSync(buildsFolder(project)).length;
    const reused = await buildOf(project, project, approved);
    expect(reused.tree).toBe(treeOf(project, approved));
    expect(reused.site).toBe(mine.site);
    expect(reused.pages).toEqual(mine.pages);
    expect(readdirSync(buildsFolder(project)).length).toBe(before);

    // The approval commit's own build (View Preview's), made for real: the same files, but for the marks.
    const own = await buildOf(project, project, approved, { exact: true });
    warm = own.site;
    expect(own.site).not.toBe(mine.site);
    expect(readFileSync(join(own.site, "index.html"), "utf8")).not.toContain(DRAFT_NOTICE);
    const [a, b] = [files(mine.folder), files(own.folder)];
    // The build's record of its inputs names the ledger's hash (npm start rebuilds when it changes): not a page.
    for (const made of [a, b]) for (const path of [...made.keys()]) if (path.endsWith(STAMP_FILE)) made.delete(path);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    const pages = [...a.keys()].filter((path) => path.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(5);
    // The headers' policy allows the draft banner's style where a page is marked: its hash, taken off like the marks.
    const draftStyle = ` 'sha256-${createHash("sha256").update(DRAFT_CSS).digest("base64")}'`;
    for (const [path, bytes] of a) {
      const other = b.get(path)!;
      if (path.endsWith(".html")) expect(unmarkDraft(bytes.toString("utf8")), path).toBe(unmarkDraft(other.toString("utf8")));
      else if (path.endsWith("_headers"))
        expect(bytes.toString("utf8").replaceAll(draftStyle, "")).toBe(other.toString("utf8").replaceAll(draftStyle, ""));
      else expect(bytes.equals(other), path).toBe(true);
    }
    expect(a.get("dist-preview/_headers")!.toString("utf8")).toContain(draftStyle);
    // Of every page, the landing page's marks alone differ (its words are the edit's, not yet approved in the edit).
    const marked = pages.filter((path) => !a.get(path)!.equals(b.get(path)!));
    expect(marked).toEqual(["dist-preview/index.html"]);
  });
});

describe("the one fact of approvals/ a page shows (decision 0056)", () => {
  /** A commit on top of the approval whose ledger records one more approval of `page`, as `review` or not. */
  function approvedAgain(page: string, review?: "no change"): string {
    const ledger = parseLedger(git("show", `${approved}:${LEDGER_FILE}`));
    const current = ledger.pages[page]!;
    const next = recordApproval(ledger, page, current.sha256, "Pat Principal, Series 24", new Date("2027-03-01T15:00:00Z"), {
      ...(review ? { review } : {}),
    }).ledger;
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: project,
      input: serializeLedger(next),
      encoding: "utf8",
    }).trim();
    git("read-tree", approved);
    git("update-index", "--cacheinfo", `100644,${blob},${LEDGER_FILE}`);
    const tree = git("write-tree");
    git("read-tree", "HEAD");
    return git("commit-tree", tree, "-p", approved, "-m", `Approve ${page} again`);
  }

  it("keys the pages on the day each document was last reviewed: a review of a document is a new build, of the landing page none", () => {
    expect(approved).not.toBe("");
    const key = (commit: string) => pagesKeyOf(project, treeOf(project, commit));
    // An approval of a document that is no review (a text rule's re-approval) leaves its pages as they were.
    expect(key(approvedAgain("/risk-disclosures"))).toBe(key(approved));
    // The landing page shows no "Last reviewed" line: its review changes nothing a page shows.
    expect(key(approvedAgain("/", "no change"))).toBe(key(approved));
    // A document's review moves its "Last reviewed" line: its pages are not those of any build before.
    expect(key(approvedAgain("/risk-disclosures", "no change"))).not.toBe(key(approved));
  });
});

describe("the build worker", () => {
  it("makes, warm, the pages `astro build` makes in a process of its own, byte for byte", () => {
    expect(warm).not.toBe("");
    const folder = mkdtempSync(join(tmpdir(), "cli-build-"));
    try {
      execFileSync("sh", ["-c", 'git -C "$1" archive "$2" | tar -x -C "$3"', "archive", project, approved, folder]);
      symlinkSync(join(projectRoot, "node_modules"), join(folder, "node_modules"), "dir");
      execFileSync(process.execPath, ["scripts/astro.ts", "build", "--config", "astro.preview.config.mjs"], {
        cwd: folder,
        env: { ...process.env, SITE_OUT_DIR: "dist-preview" },
        stdio: "ignore",
      });
      const [cli, worker] = [files(join(folder, "dist-preview")), files(warm)];
      expect([...worker.keys()].sort()).toEqual([...cli.keys()].sort());
      expect([...cli.keys()].filter((path) => path.endsWith(".html")).length).toBeGreaterThan(5);
      for (const [path, bytes] of cli) expect(worker.get(path)!.equals(bytes), path).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
