/** The document pages as the site renders them: the `legal` and `disclosures` collections, in footer order. */
import { getCollection } from "astro:content";
import { DOCUMENT_COLLECTIONS } from "../content/schemas/files.ts";
import { inFooterOrder } from "./documents.ts";

export async function documentEntries() {
  const legal = (await getCollection("legal")).map((entry) => ({ entry, file: `${DOCUMENT_COLLECTIONS.legal.folder}/${entry.id}.md` }));
  const disclosures = (await getCollection("disclosures")).map((entry) => ({
    entry,
    file: `${DOCUMENT_COLLECTIONS.disclosures.folder}/${entry.id}.md`,
  }));
  return inFooterOrder(
    [...legal, ...disclosures].map(({ entry, file }) => ({
      entry,
      file,
      slug: entry.id,
      order: entry.data.order,
      title: entry.data.title,
    })),
  );
}
