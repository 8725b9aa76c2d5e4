/**
 * What the studio lets through to `main`: publishing an entry merges its branch, so every page whose
 * text the branch changes must carry a registered principal's approval on that branch (the approvals
 * view records it). The git API refuses the publish otherwise, whatever the admin page does; the build
 * gate stays the last line. After a publish, the project's `main` follows the clone's. An entry's
 * "View Preview" opens its branch's preview build (previews.ts).
 */
import { publishCheck } from "./approvals.ts";
import { entryBranch, mergeConflict, syncMainBack } from "./git.ts";
import { branchPreviews } from "./previews.ts";

/** Why the branch may not be published: it no longer merges into main, or its pages are not approved; null when it may. */
export async function publishRefusal(root: string, repo: string, branch: string): Promise<string | null> {
  return mergeConflict(repo, branch) ?? (await publishCheck(root, repo, branch));
}

export function publishRules(root: string, repo: string) {
  const previews = branchPreviews(root, repo);
  return {
    answer: async (action: string, params: Record<string, unknown>) =>
      action === "getDeployPreview" ? previews.deployPreview(params) : undefined,
    screen: async (action: string, params: Record<string, unknown>) =>
      action === "publishUnpublishedEntry" ? publishRefusal(root, repo, entryBranch(params.collection, params.slug)) : null,
    after: async (action: string) => {
      if (action !== "publishUnpublishedEntry") return;
      const waiting = syncMainBack(root, repo);
      if (waiting) console.warn(`studio: ${waiting}`);
    },
    onClose: () => previews.close(),
  };
}
