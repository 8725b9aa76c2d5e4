/**
 * Who approved a page's words and who wrote them, read from git at a commit (lib/records/approvals.ts),
 * on a repository made here the way the studio makes its history: an editor's commits on an entry's
 * branch, the principal's approval commit (with the studio's event trailer) on top, a merge into main.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalsAt, editorsOf, ledgerAtCommit, STUDIO_EVENT_TRAILER } from "../../lib/records/approvals.ts";

let repo: string;
let reviewed: string;
let merged: string;
let unmerged: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
const commitAs = (name: string, email: string, message: string, files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, ".."), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git("add", "-A");
  execFileSync("git", ["commit", "-q", "-m", message], {
    cwd: repo,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: "Content studio",
      GIT_COMMITTER_EMAIL: "studio@example.com",
    },
  });
  return git("rev-parse", "HEAD");
};
const ledger = (commit?: string) =>
  JSON.stringify({
    pages: {
      "/": {
        sha256: "a".repeat(64),
        approvedBy: "Pat Example, Series 24, CRD 1000001",
        approvedOn: "2026-03-14T12:00:00Z",
        ...(commit
          ? { principal: { email: "pat.example@example.com", name: "Pat Example", crd: "1000001", registration: "Series 24" }, commit }
          : {}),
        history: [],
      },
    },
  });

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "records-approvals-"));
  git("init", "-q", "-b", "main");
  commitAs("Dev", "dev@example.com", "Start", { "approvals/ledger.json": ledger(), "src/hero.yaml": "headline: one\n" });
  git("checkout", "-q", "-b", "cms/landing/hero");
  commitAs("Erin Editor", "Erin.Editor@example.com", "Update hero", { "src/hero.yaml": "headline: two\n" });
  reviewed = commitAs("Sam Writer", "sam@example.com", "Update hero again", { "src/hero.yaml": "headline: three\n" });
  commitAs("Pat Example", "pat.example@example.com", `Approve /\n\n${STUDIO_EVENT_TRAILER}: approval`, {
    "approvals/ledger.json": ledger(reviewed),
  });
  git("checkout", "-q", "main");
  commitAs("Dev", "dev@example.com", "Something else on main meanwhile", { README: "x\n" });
  git("merge", "-q", "--no-ff", "-m", "Publish hero", "cms/landing/hero");
  merged = git("rev-parse", "HEAD");
  git("checkout", "-q", "-b", "cms/landing/other", "main");
  unmerged = commitAs("Erin Editor", "erin.editor@example.com", "Not published", { "src/hero.yaml": "headline: four\n" });
  git("checkout", "-q", "main");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("approvals at a commit", () => {
  it("names the editors of an entry as merged: its commits' authors, the studio's own event commits left out", () => {
    expect(editorsOf(repo, reviewed, merged)).toEqual([
      { name: "Sam Writer", email: "sam@example.com" },
      { name: "Erin Editor", email: "erin.editor@example.com" },
    ]);
  });

  it("cannot say who edited a commit that was never merged, or in a repository without it", () => {
    expect(editorsOf(repo, unmerged, merged)).toBeUndefined();
    expect(editorsOf(repo, "f".repeat(40), merged)).toBeUndefined();
  });

  it("gives each page's approval with its principal, the reviewed commit and the editors", () => {
    expect(ledgerAtCommit(repo, merged)?.pages["/"]?.commit).toBe(reviewed);
    expect(approvalsAt(repo, merged, ["/", "/privacy-policy"])).toEqual([
      {
        page: "/",
        sha256: "a".repeat(64),
        approvedBy: "Pat Example, Series 24, CRD 1000001",
        approvedOn: "2026-03-14T12:00:00Z",
        principal: { email: "pat.example@example.com", name: "Pat Example", crd: "1000001", registration: "Series 24" },
        commit: reviewed,
        editedBy: [
          { name: "Sam Writer", email: "sam@example.com" },
          { name: "Erin Editor", email: "erin.editor@example.com" },
        ],
      },
    ]);
  });

  it("keeps an approval made outside the studio as it is recorded: a name, no editors", () => {
    const first = git("rev-list", "--max-parents=0", "HEAD");
    expect(approvalsAt(repo, first, ["/"])).toEqual([
      { page: "/", sha256: "a".repeat(64), approvedBy: "Pat Example, Series 24, CRD 1000001", approvedOn: "2026-03-14T12:00:00Z" },
    ]);
    expect(ledgerAtCommit(repo, "no-such-revision")).toBeUndefined();
  });
});
