/** Pages named as people say them: "Landing page", a document's own title, "Disclosures", "Page not found (404)". */
import { documentFiles } from "../../src/build/content-files.ts";
import { pageNamer } from "../../src/build/documents.ts";
import { buildOf } from "./builds.ts";

export async function pageTitles(root: string, repo: string, revision: string): Promise<(page: string) => string> {
  const { folder } = await buildOf(root, repo, revision);
  return pageNamer(documentFiles(folder));
}
