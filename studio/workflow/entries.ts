/**
 * The entries of Decap's editorial workflow as the studio sees them: one `cms/<collection>/<slug>`
 * branch each, its status kept by decap-server as the branch's description in the clone's git config
 * (so it survives a restart of the studio), named as people say them ("Landing page: Hero",
 * "Privacy Policy"), with who edited them and when.
 */
import { DOCUMENT_COLLECTIONS, LANDING_FILES, LANDING_FOLDER } from "../../src/content/schemas/files.ts";
import { frontMatterOf } from "../../src/build/content-files.ts";
import { git } from "../git.ts";
import { STUDIO_EVENT_TRAILER } from "../../lib/records/approvals.ts";

export type Status = "draft" | "pending_review" | "pending_publish";
export const STATUS_LABEL: Record<Status, string> = { draft: "Draft", pending_review: "In review", pending_publish: "Ready" };

export interface Entry {
  collection: string;
  slug: string;
  branch: string;
  status: Status;
  head: string;
}

/** Marks the studio's own commits on an entry's branch (approvals): not an editor's work. The records read it too. */
export { STUDIO_EVENT_TRAILER };

/** Decap's branch for an entry in the editorial workflow (decap-server names it so). */
export const entryBranch = (collection: unknown, slug: unknown) => `cms/${String(collection ?? "")}/${String(slug ?? "")}`;

/** The content file an entry edits; undefined for an entry the site does not have. */
export function entryFile(collection: string, slug: string): string | undefined {
  if (collection === "landing") {
    const file = (LANDING_FILES as Record<string, { file: string }>)[slug]?.file;
    return file && `${LANDING_FOLDER}/${file}`;
  }
  const folder = (DOCUMENT_COLLECTIONS as Record<string, { folder: string }>)[collection]?.folder;
  return folder && /^[a-z0-9-]+$/.test(slug) ? `${folder}/${slug}.md` : undefined;
}

const labelOf = (description: string): Status => {
  const status = description
    .trim()
    .split("\n")
    .pop()
    ?.replace(/^decap-cms\//, "");
  return status === "pending_review" || status === "pending_publish" ? status : "draft";
};

/** Every entry in the workflow (two git commands, however many entries: every request reads them). */
export function listEntries(repo: string): Entry[] {
  const lines = git(repo, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/cms/").split("\n").filter(Boolean);
  if (lines.length === 0) return [];
  // Every branch's description at once: `key\nvalue` records, NUL-separated (a description may span lines).
  const descriptions = new Map<string, string>();
  try {
    for (const record of git(repo, "config", "-z", "--get-regexp", "^branch\\.cms/.*\\.description$").split("\0")) {
      const cut = record.indexOf("\n");
      if (cut < 0) continue;
      const key = record.slice(0, cut);
      // Of several values (--get-all), the last counts, as labelOf reads them.
      descriptions.set(key, `${descriptions.get(key) ?? ""}\n${record.slice(cut + 1)}`);
    }
  } catch {
    // No descriptions yet: every entry is a draft.
  }
  return lines.map((line) => {
    const [branch, head] = line.split(" ") as [string, string];
    const [, collection = "", ...rest] = branch.split("/");
    // Git gives the key's section and name in lower case, the branch (its subsection) as it is.
    const description = descriptions.get(`branch.${branch}.description`) ?? "";
    return { branch, collection, slug: rest.join("/"), status: labelOf(description), head };
  });
}

export const findEntry = (repo: string, collection: string, slug: string) =>
  listEntries(repo).find((e) => e.collection === collection && e.slug === slug);

/** Sets an entry's status as decap-server records it, so Decap's board shows it. */
export function setStatus(repo: string, branch: string, status: Status) {
  git(repo, "config", "--replace-all", `branch.${branch}.description`, `decap-cms/${status}`);
}

/** "Landing page: Hero", "Privacy Policy" (the document's title on the entry's branch). */
export function entryName(repo: string, entry: Pick<Entry, "collection" | "slug" | "branch">): string {
  if (entry.collection === "landing") {
    const label = (LANDING_FILES as Record<string, { label: string }>)[entry.slug]?.label ?? entry.slug;
    return `Landing page: ${label}`;
  }
  const file = entryFile(entry.collection, entry.slug);
  for (const revision of [entry.branch, "main"]) {
    try {
      const title = (frontMatterOf(git(repo, "show", `${revision}:${file}`)) as { title?: unknown } | undefined)?.title;
      if (typeof title === "string" && title.trim()) return title.trim();
    } catch {
      // Not on that revision: try the next.
    }
  }
  return entry.slug;
}

export interface Edit {
  name: string;
  email: string;
  /** ISO 8601, UTC. */
  at: string;
  commit: string;
}

/** The editors' commits on the entry's branch since `main` (the studio's approval commits left out), oldest first. */
export function editsOf(repo: string, branch: string): Edit[] {
  const format = `%H%x1f%an%x1f%ae%x1f%aI%x1f%(trailers:key=${STUDIO_EVENT_TRAILER},valueonly,separator=%x2c)`;
  return git(repo, "log", "--reverse", "--no-merges", `--format=${format}`, `main..${branch}`)
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\x1f") as [string, string, string, string, string])
    .filter(([, , , , event]) => !event.trim())
    .map(([commit, name, email, at]) => ({ commit, name, email: email.toLowerCase(), at: new Date(at).toISOString() }));
}
