/**
 * Which git actions reach decap-server, by role. decap-server trusts what it is sent: given
 * `options.useWorkflow: false` it commits straight onto the branch it is told, `main` included, and it
 * offers uploads and deletions this site never needs. A document's Markdown is held to the build's content
 * rules before it is saved (no raw HTML, only safe link targets). The studio passes on only what an editor's or a
 * principal's work in Decap sends, and refuses the rest with 403 and one sentence. Compliance reads only.
 */
import { DOCUMENT_COLLECTIONS, LANDING_FOLDER } from "../../src/content/schemas/files.ts";
import type { Actor } from "../auth/sessions.ts";
import { entryFile } from "../workflow/entries.ts";
import { addressRefusal } from "../../src/shared/addresses.ts";
import { markdownFileProblems } from "../../src/build/markdown/content-rules.ts";

/** Reading main: every role. They change nothing (workflow/api.ts sets no author for them, and sends one again after decap-server died with it). */
export const READS = new Set([
  "info",
  "entriesByFolder",
  "entriesByFiles",
  "getEntry",
  "unpublishedEntries",
  "unpublishedEntry",
  "unpublishedEntryDataFile",
  "unpublishedEntryMediaFile",
]);
/** Answered by the studio itself (never decap-server's): the deploy preview, publishing, the media library (always empty). */
export const STUDIO_ACTIONS = new Set(["getDeployPreview", "publishUnpublishedEntry", "getMedia"]);
const WORKFLOW = new Set(["persistEntry", "updateUnpublishedEntryStatus", "deleteUnpublishedEntry"]);

const CONTENT_FOLDERS = [LANDING_FOLDER, ...Object.values(DOCUMENT_COLLECTIONS).map((c) => c.folder)];
/**
 * Within the content folders. The approval the studio commits on an entry's branch is not among them:
 * Decap is never told of it (decap/answers.ts, `withoutApprovals`), so it never asks for it.
 */
const inContent = (path: unknown) =>
  typeof path === "string" &&
  !path.split("/").includes("..") &&
  CONTENT_FOLDERS.some((folder) => path === folder || path.startsWith(`${folder}/`));

type Params = Record<string, unknown>;

/** Every path an action names (reads and writes alike). */
function pathsOf(action: string, params: Params): unknown[] {
  if (action === "entriesByFolder") return [params.folder];
  if (action === "entriesByFiles")
    return Array.isArray(params.files) ? params.files.map((f) => (f as { path?: unknown })?.path) : [undefined];
  if (action === "getEntry" || action === "unpublishedEntryDataFile" || action === "unpublishedEntryMediaFile") return [params.path];
  if (action === "persistEntry") {
    const files = Array.isArray(params.dataFiles) ? params.dataFiles : [params.entry];
    return files.flatMap((f) => [
      (f as { path?: unknown })?.path,
      ...((f as { newPath?: unknown })?.newPath === undefined ? [] : [(f as { newPath?: unknown }).newPath]),
    ]);
  }
  return [];
}

/** Null when the actor may send this action as it is; otherwise the sentence that refuses it. */
export function screenAction(action: string, params: Params, actor: Actor): string | null {
  if (!READS.has(action) && !WORKFLOW.has(action) && !STUDIO_ACTIONS.has(action))
    return `The studio does not pass on "${action}": this site's content is edited through the workflow only (no uploads, no deletions of files).`;
  if (actor.role === "compliance" && !actor.local && (WORKFLOW.has(action) || action === "publishUnpublishedEntry"))
    return "Compliance follows the studio's work and keeps its records; editing and publishing are for editors and principals.";
  if ("branch" in params && params.branch !== "main") return "Every action starts from main: the studio refuses any other branch.";
  // Before a new page's first save Decap asks whether its address has a draft: a title without letters or digits gives it none.
  if (params.slug === "" && Object.hasOwn(DOCUMENT_COLLECTIONS, String(params.collection))) return addressRefusal("", new Map())!;
  if (pathsOf(action, params).some((path) => !inContent(path)))
    return "That path is outside the content folders (src/content/): the studio edits the site's copy only.";
  if (action === "persistEntry") {
    const options = (params.options ?? {}) as { useWorkflow?: unknown; collectionName?: unknown };
    if (options.useWorkflow !== true) return "Saving straight to main is not allowed: every change is a draft that a principal reviews.";
    const entry = (Array.isArray(params.dataFiles) ? params.dataFiles[0] : params.entry) as { slug?: unknown } | undefined;
    const file = entryFile(String(options.collectionName ?? ""), String(entry?.slug ?? ""));
    // A new document's address Decap made from its title, that no file may have.
    if (!file && Object.hasOwn(DOCUMENT_COLLECTIONS, String(options.collectionName)))
      return addressRefusal(String(entry?.slug ?? ""), new Map()) ?? "A save may change only the entry's own content file.";
    if (!file || pathsOf(action, params).some((path) => path !== file)) return "A save may change only the entry's own content file.";
    if (Array.isArray(params.assets) && params.assets.length > 0) return "Uploads are not part of this site's content.";
    // The build's own sentences (raw HTML, unsafe link targets), before anything is saved.
    const raw = (entry as { raw?: unknown } | undefined)?.raw;
    if (file.endsWith(".md") && typeof raw === "string") {
      const problems = markdownFileProblems(raw, file);
      if (problems.length > 0) return problems.join(" ");
    }
  }
  if (action === "updateUnpublishedEntryStatus" && params.newStatus === "pending_publish" && !actor.local)
    return "Only a principal's approval sets an entry to Ready: open Approvals to have it reviewed.";
  if (action === "updateUnpublishedEntryStatus" && !["draft", "pending_review", "pending_publish"].includes(String(params.newStatus)))
    return "That is not a status of the workflow (Draft, In review, Ready).";
  return null;
}
