/** The document pages as the site renders them: the `legal` and `disclosures` collections, checked and in site order. */
import { getCollection } from "astro:content";
import { DOCUMENT_COLLECTIONS } from "../content/schemas/files.ts";
import { inSiteOrder } from "./documents.ts";

export async function documentEntries() {
  const legal = (await getCollection("legal")).map((entry) => ({
    entry,
    collection: "legal" as const,
    file: `${DOCUMENT_COLLECTIONS.legal.folder}/${entry.id}.md`,
    order: entry.data.order,
    title: entry.data.title,
    withdrawn: undefined,
  }));
  const disclosures = (await getCollection("disclosures")).map((entry) => ({
    entry,
    collection: "disclosures" as const,
    file: `${DOCUMENT_COLLECTIONS.disclosures.folder}/${entry.id}.md`,
    order: entry.data.order,
    title: entry.data.title,
    withdrawn: entry.data.withdrawn,
  }));
  return inSiteOrder([...legal, ...disclosures].map((doc) => ({ ...doc, slug: doc.entry.id })));
}
