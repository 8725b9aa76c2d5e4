/**
 * The saves of a document that the role screen (decap/screen.ts) cannot judge without the repository:
 * a new page, and a withdrawal. Decap sends a new entry as a save of a file that neither main nor the
 * workflow has, at the address it made from the title. Only the disclosures take new pages, at an
 * address no route and no other page has (src/shared/addresses.ts). When its own collection already
 * has the address, Decap quietly makes "<address>-1": refused as well, naming whose the address is. The
 * legal pages and the required disclosures refuse a withdrawal. One sentence each, before anything is saved.
 */
import { DOCUMENT_COLLECTIONS, REQUIRED_DISCLOSURES } from "../../src/content/schemas/files.ts";
import { frontMatterOf } from "../../src/build/content-files.ts";
import { addressOf, addressRefusal } from "../../src/shared/addresses.ts";
import { git } from "../git.ts";
import { entryFile, entryName, listEntries } from "./entries.ts";

type Params = Record<string, unknown>;
type Front = { title?: unknown; withdrawn?: unknown } | undefined;

const isSet = (value: unknown) => value !== undefined && value !== null && value !== "";

function frontOf(raw: unknown): Front {
  try {
    return frontMatterOf(String(raw ?? "")) as Front;
  } catch {
    // Decap writes what its fields hold; front matter it cannot have written is the build's to refuse.
    return undefined;
  }
}

const onMain = (repo: string, path: string) => {
  try {
    git(repo, "cat-file", "-e", `main:${path}`);
    return true;
  } catch {
    return false;
  }
};

/** Every page that has an address now, on main or in the workflow, by address: its title. */
function takenAddresses(repo: string): Map<string, string> {
  const taken = new Map<string, string>();
  for (const { folder } of Object.values(DOCUMENT_COLLECTIONS)) {
    for (const path of git(repo, "ls-tree", "--name-only", "main", `${folder}/`)
      .split("\n")
      .filter((p) => p.endsWith(".md"))) {
      const title = frontOf(git(repo, "show", `main:${path}`))?.title;
      taken.set(path.slice(folder.length + 1, -".md".length), typeof title === "string" ? title : path);
    }
  }
  for (const entry of listEntries(repo))
    if (entry.collection in DOCUMENT_COLLECTIONS && !taken.has(entry.slug))
      taken.set(entry.slug, `${entryName(repo, entry)} (in the workflow)`);
  return taken;
}

/** Why this save of a document may not be sent on; null when it may (and for anything but a document's save). */
export function documentSaveRefusal(repo: string, params: Params): string | null {
  const collection = String((params.options as { collectionName?: unknown } | undefined)?.collectionName ?? "");
  if (!Object.hasOwn(DOCUMENT_COLLECTIONS, collection)) return null;
  const rules = DOCUMENT_COLLECTIONS[collection as keyof typeof DOCUMENT_COLLECTIONS];
  const file = (Array.isArray(params.dataFiles) ? params.dataFiles[0] : params.entry) as { slug?: unknown; raw?: unknown } | undefined;
  const slug = String(file?.slug ?? "");
  const front = frontOf(file?.raw);
  const title = typeof front?.title === "string" && front.title.trim() ? front.title.trim() : slug;

  if (isSet(front?.withdrawn)) {
    if (collection === "legal") return "The legal pages are the specification's four: they cannot be withdrawn.";
    const required = REQUIRED_DISCLOSURES[slug];
    if (required) return `${title} cannot be withdrawn: ${required}.`;
  }

  const path = entryFile(collection, slug);
  const exists =
    (path !== undefined && onMain(repo, path)) || listEntries(repo).some((e) => e.collection === collection && e.slug === slug);
  if (exists) return null;
  if (!rules.create) return `${rules.label} are not added in the studio: it edits the ones the site has.`;
  const taken = takenAddresses(repo);
  // Decap adds "-1" to an address its own collection has: the title's own address is the one to judge.
  const fromTitle = addressOf(title);
  if (fromTitle !== slug && taken.has(fromTitle)) return addressRefusal(fromTitle, taken);
  if (isSet(front?.withdrawn)) return "A new disclosure cannot start withdrawn: leave Withdrawn empty.";
  return addressRefusal(slug, taken);
}
