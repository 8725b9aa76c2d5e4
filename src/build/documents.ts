/**
 * The document pages from the content collections: the legal pages (the footer's, in `order`) and the
 * disclosures (listed on /disclosures, in `order`). A new Markdown file in src/content/disclosures/ is
 * a new page at the address its file name gives; one whose front matter sets `withdrawn` is built as a
 * short notice at that address and listed nowhere. Used by pages (through `astro:content`) and, with
 * `documentFiles`, by tooling that reads the same files from disk.
 */
import { REQUIRED_DISCLOSURES, type DOCUMENT_COLLECTIONS } from "../content/schemas/files.ts";
import { ADDRESS_PATTERN, RESERVED_ADDRESSES } from "../shared/addresses.ts";

export type DocumentCollection = keyof typeof DOCUMENT_COLLECTIONS;

export interface DocumentRef {
  /** The page's path segment: the file name without `.md`. */
  slug: string;
  /** The file it comes from, relative to the project root (for error lines). */
  file: string;
  collection: DocumentCollection;
  order: number;
  title: string;
  /** The day a disclosure was withdrawn; undefined while it is in force. */
  withdrawn?: Date | undefined;
}

/** The disclosures index: every disclosure in force, with its date and one line. */
export const DISCLOSURES_INDEX = "/disclosures";
export const DISCLOSURES_INDEX_TITLE = "Disclosures";

/** Throws, naming the file, when its address is not one a page may have or another file has it. */
function checkAddresses(documents: readonly DocumentRef[]) {
  const seen = new Map<string, DocumentRef>();
  for (const doc of documents) {
    if (!ADDRESS_PATTERN.test(doc.slug))
      throw new Error(
        `${doc.file}: the file's name gives the address /${doc.slug}; use only lower-case letters, digits and single hyphens`,
      );
    const reserved = RESERVED_ADDRESSES[doc.slug];
    if (reserved) throw new Error(`${doc.file}: the file's name gives the address /${doc.slug}, which is ${reserved}'s; rename the file`);
    const other = seen.get(doc.slug);
    if (other) throw new Error(`${doc.file}: the file's name gives the address /${doc.slug}, which is ${other.file}'s; rename one of them`);
    seen.set(doc.slug, doc);
    const required = doc.collection === "disclosures" ? REQUIRED_DISCLOSURES[doc.slug] : undefined;
    if (doc.withdrawn && required) throw new Error(`${doc.file}: field "withdrawn": ${doc.title} cannot be withdrawn: ${required}`);
  }
}

/**
 * Checks the documents and puts them in site order: the legal pages by `order` (each in its own place:
 * throws naming both files and the field), then the disclosures by `order`, then title.
 */
export function inSiteOrder<T extends DocumentRef>(documents: readonly T[]): T[] {
  checkAddresses(documents);
  const legal = documents.filter((doc) => doc.collection === "legal").sort((a, b) => a.order - b.order);
  legal.forEach((doc, i) => {
    const next = legal[i + 1];
    if (next && next.order === doc.order)
      throw new Error(`${next.file}: field "order" is ${next.order}, the same as in ${doc.file}; each legal page needs its own place`);
  });
  const disclosures = documents
    .filter((doc) => doc.collection === "disclosures")
    .sort((a, b) => a.order - b.order || a.title.localeCompare(b.title, "en"));
  return [...legal, ...disclosures];
}

/** The legal pages, which the footer links on every page. */
export const footerDocuments = <T extends DocumentRef>(documents: readonly T[]) => documents.filter((doc) => doc.collection === "legal");

/** The disclosures in force, as the index lists them. */
export const disclosuresInForce = <T extends DocumentRef>(documents: readonly T[]) =>
  documents.filter((doc) => doc.collection === "disclosures" && !doc.withdrawn);

/** The site paths of the real pages, in sitemap order: the landing page, the legal pages, the index, the disclosures in force. */
export const indexablePaths = (documents: readonly DocumentRef[]): string[] => [
  "/",
  ...footerDocuments(documents).map((doc) => `/${doc.slug}`),
  DISCLOSURES_INDEX,
  ...disclosuresInForce(documents).map((doc) => `/${doc.slug}`),
];

/** Every page the site builds but the 404 page: the real pages, then the withdrawn disclosures' notices. */
export const builtPaths = (documents: readonly DocumentRef[]): string[] => [
  ...indexablePaths(documents),
  ...documents.filter((doc) => doc.withdrawn).map((doc) => `/${doc.slug}`),
];

/** Pages named as people say them: "Landing page", a document's own title, "Disclosures", "Page not found (404)". */
export function pageNamer(documents: readonly DocumentRef[]): (page: string) => string {
  const names = new Map<string, string>([
    ["/", "Landing page"],
    [DISCLOSURES_INDEX, DISCLOSURES_INDEX_TITLE],
    ["/404", "Page not found (404)"],
    ...documents.map((doc): [string, string] => [`/${doc.slug}`, doc.title]),
  ]);
  return (page) => names.get(page) ?? page;
}
