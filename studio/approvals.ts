/**
 * The principal's side of the studio: which entries are in review, what each changes on the site (the
 * page text the build gate hashes, from a preview build of the entry's branch), the word-by-word
 * difference from the approved text on `main`, and the approval itself, recorded as a commit on the
 * entry's branch whose author is the principal. Commits are made with git's plumbing (no checkout), so
 * decap-server's own checkouts in the clone are never disturbed.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { diffWords } from "diff";
import {
  emptyLedger,
  LEDGER_FILE,
  parseLedger,
  PREVIEW_TEXTS_FILE,
  recordApproval,
  serializeLedger,
  textFileOf,
  unapprovedPages,
  type Ledger,
} from "../integrations/approval/ledger.ts";
import { git } from "./git.ts";

export interface ReviewEntry {
  branch: string;
  collection: string;
  slug: string;
  /** Decap's status: draft, pending_review (In review) or pending_publish (Ready). */
  status: string;
  head: string;
}

export interface PageChange {
  page: string;
  /** "new": never approved; "changed": differs from the approved text. */
  reason: "new" | "changed";
  sha256: string;
  text: string;
  /** The approved text on `main`, when there is one. */
  approved: string;
  diff: Array<{ value: string; added?: boolean; removed?: boolean }>;
}

/** Every `cms/…` branch of the clone with its Decap status (decap-server keeps it as the branch's description in the clone's git config). */
export function reviewEntries(repo: string): ReviewEntry[] {
  const branches = git(repo, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/cms/").split("\n").filter(Boolean);
  return branches.map((line) => {
    const [branch, head] = line.split(" ") as [string, string];
    const [, collection = "", ...rest] = branch.split("/");
    let status = "draft";
    try {
      const labels = git(repo, "config", "--get-all", `branch.${branch}.description`);
      status =
        labels
          .split("\n")
          .map((label) => label.replace(/^decap-cms\//, ""))
          .pop() ?? "draft";
    } catch {
      // No label yet: a draft.
    }
    return { branch, collection, slug: rest.join("/"), status, head };
  });
}

const ledgerAt = (repo: string, revision: string): Ledger => {
  try {
    return parseLedger(git(repo, "show", `${revision}:${LEDGER_FILE}`), LEDGER_FILE);
  } catch {
    return emptyLedger();
  }
};
const fileAt = (repo: string, revision: string, path: string) => {
  try {
    return execFileSync("git", ["show", `${revision}:${path}`], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return "";
  }
};

type PageTexts = Record<string, { sha256: string; text: string }>;
/** Builds under way, by commit: the approvals view and an entry's View Preview may ask for the same one at once. */
const building = new Map<string, Promise<PageTexts>>();

/** Builds one commit's preview (cached by commit under .studio/builds/) and resolves to its page texts. */
export function previewTexts(root: string, repo: string, commit: string): Promise<PageTexts> {
  const texts = join(root, ".studio", "builds", commit, "dist-preview", PREVIEW_TEXTS_FILE);
  const read = () => (JSON.parse(readFileSync(texts, "utf8")) as { pages: PageTexts }).pages;
  if (existsSync(texts)) return Promise.resolve(read());
  let build = building.get(commit);
  if (!build) {
    build = buildPreview(root, repo, commit).then(read);
    building.set(commit, build);
    void build.finally(() => building.delete(commit)).catch(() => undefined);
  }
  return build;
}

/** The preview build of a commit, made in a folder of its own and moved into place when complete. */
async function buildPreview(root: string, repo: string, commit: string): Promise<void> {
  const dir = join(root, ".studio", "builds", commit);
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync("sh", ["-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "archive", repo, commit, work]);
  symlinkSync(join(root, "node_modules"), join(work, "node_modules"), "dir");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/astro.ts", "build", "--config", "astro.preview.config.mjs"], {
      cwd: work,
      env: { ...process.env, SITE_OUT_DIR: "dist-preview" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`the preview build of ${commit.slice(0, 7)} failed:\n${log.slice(-3000)}`)),
    );
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
}

/** The pages whose text on `commit` is not approved in that commit's own ledger, with the diff from `main`'s approved text. */
export async function pageChanges(root: string, repo: string, commit: string): Promise<PageChange[]> {
  const pages = await previewTexts(root, repo, commit);
  const ledger = ledgerAt(repo, commit);
  const list = Object.entries(pages)
    .map(([page, { sha256, text }]) => ({ page, sha256, text }))
    .sort((a, b) => a.page.localeCompare(b.page));
  return unapprovedPages(list, ledger).map(({ page, sha256, text, reason }) => {
    const approved = fileAt(repo, "main", textFileOf(page));
    return { page, reason, sha256, text, approved, diff: diffWords(approved, text) };
  });
}

/** Refusal of a publish: the pages of the entry's branch that are not approved, and why; null when all are. */
export async function publishCheck(root: string, repo: string, branch: string): Promise<string | null> {
  const head = git(repo, "rev-parse", `refs/heads/${branch}`);
  const changes = await pageChanges(root, repo, head);
  if (changes.length === 0) return null;
  const pages = changes.map((c) => `${c.page} (${c.reason === "new" ? "never approved" : "text changed"})`).join(", ");
  return `Not published: ${pages} ${changes.length === 1 ? "is" : "are"} not approved by a registered principal. Open Approvals, review the difference, and approve it first.`;
}

export interface Principal {
  name: string;
  registration: string;
}

/**
 * Records the principal's approval of every unapproved page of the branch's head, as one commit on the
 * branch (ledger entries and approved texts), with the principal as its author. Refuses when the branch
 * moved since the principal saw it (`expectedHead`), so what is approved is what was reviewed.
 */
export async function approveEntry(
  root: string,
  repo: string,
  branch: string,
  expectedHead: string,
  principal: Principal,
  now = new Date(),
): Promise<string> {
  const name = principal.name.trim().replace(/\s+/g, " ");
  const registration = principal.registration.trim().replace(/\s+/g, " ");
  if (!name || !registration) throw new Error("Give the principal's name and registration (for example: Series 24, CRD 1234567).");
  if (/[<>\r\n]/.test(name + registration)) throw new Error("The name and registration must be one line, without < or >.");
  const head = git(repo, "rev-parse", `refs/heads/${branch}`);
  if (head !== expectedHead) throw new Error("The entry changed since this page was loaded: reload Approvals and review it again.");
  const changes = await pageChanges(root, repo, head);
  if (changes.length === 0) throw new Error("Nothing to approve: every page of this entry is approved.");
  let ledger = ledgerAt(repo, head);
  for (const change of changes) ledger = recordApproval(ledger, change.page, change.sha256, `${name}, ${registration}`, now).ledger;
  const index = join(root, ".studio", `index-${process.pid}`);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const run = (args: string[], input?: string, extra: Record<string, string> = {}) =>
    execFileSync("git", args, { cwd: repo, env: { ...env, ...extra }, input, encoding: "utf8" }).trim();
  try {
    run(["read-tree", head]);
    const files = [[LEDGER_FILE, serializeLedger(ledger)], ...changes.map((c) => [textFileOf(c.page), c.text])] as Array<[string, string]>;
    for (const [path, content] of files) {
      const blob = run(["hash-object", "-w", "--stdin"], content);
      run(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
    }
    const tree = run(["write-tree"]);
    const message = `Approve ${changes.map((c) => c.page).join(", ")} for publication\n\nApproved by ${name}, ${registration} in the content studio.`;
    const email = `${
      registration
        .replace(/[^A-Za-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")
        .toLowerCase() || "principal"
    }@principal.invalid`;
    const commit = run(["commit-tree", tree, "-p", head, "-m", message], undefined, {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: "Content studio",
      GIT_COMMITTER_EMAIL: "studio@localhost",
    });
    // Compare-and-swap: fails if the branch moved while the commit was made.
    run(["update-ref", `refs/heads/${branch}`, commit, head]);
    return commit;
  } finally {
    rmSync(index, { force: true });
  }
}
