/** Pages named as people say them: "Landing page", a document's own title, "Page not found (404)". */
import { documentFiles } from "../../src/build/content-files.ts";
import { buildOf } from "./builds.ts";

export async function pageTitles(root: string, repo: string, revision: string): Promise<(page: string) => string> {
  const { folder } = await buildOf(root, repo, revision);
  const documents = new Map(documentFiles(folder).map((d) => [`/${d.slug}`, d.title]));
  return (page) => (page === "/" ? "Landing page" : page === "/404" ? "Page not found (404)" : (documents.get(page) ?? page));
}
