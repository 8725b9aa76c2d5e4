/**
 * The document pages (legal pages, then disclosures) in footer order, from the content collections:
 * a new Markdown file in src/content/legal/ or src/content/disclosures/ is a new page, with its place
 * in the footer and the sitemap given by its front matter's `order`. Used by pages (through
 * `astro:content`) and, with `documentFiles`, by tooling that reads the same files from disk.
 */
import type { DOCUMENT_COLLECTIONS } from "../content/schemas/files.ts";

export interface DocumentRef {
  /** The page's path segment: the file name without `.md`. */
  slug: string;
  /** The file it comes from, relative to the project root (for error lines). */
  file: string;
  order: number;
  title: string;
}

export type DocumentCollection = keyof typeof DOCUMENT_COLLECTIONS;

/** Sorts by `order`; throws naming both files and the field when two documents claim the same place. */
export function inFooterOrder<T extends DocumentRef>(documents: readonly T[]): T[] {
  const sorted = [...documents].sort((a, b) => a.order - b.order);
  sorted.forEach((doc, i) => {
    const next = sorted[i + 1];
    if (next && next.order === doc.order)
      throw new Error(`${next.file}: field "order" is ${next.order}, the same as in ${doc.file}; each document needs its own place`);
  });
  return sorted;
}

/** The site paths of the real pages, in sitemap order: the landing page, then the documents. The 404 page is not one. */
export const indexablePaths = (documents: readonly DocumentRef[]): string[] => ["/", ...documents.map((doc) => `/${doc.slug}`)];
