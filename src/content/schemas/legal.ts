import { z } from "zod";
import { plainText } from "./plain-text.ts";

/** Position among the legal pages in the footer, or among the disclosures in their index (1 = first). */
const order = z.number().int().min(1).max(99);

/**
 * Front matter of a legal page (src/content/legal/*.md). The contents list is made from the body's
 * "## " headings (six, the spec's sections): nothing here lists them.
 */
export const legalSchema = z.strictObject(
  {
    /** The page's h1 and <title>. */
    title: plainText(1, 80),
    order,
    /** Meta description, one or two sentences (50 to 160 characters). */
    description: plainText(50, 160),
    /** Date of the last revision (YYYY-MM-DD); shown as "Last updated: Month YYYY". */
    lastUpdated: z.coerce.date(),
    /** Optional warning shown in a banner above the first section (Risk Disclosures). */
    warning: plainText(1).optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" && issue.keys.includes("withdrawn")
        ? "the legal pages are the specification's four and cannot be withdrawn"
        : undefined,
  },
);

export type LegalFrontMatter = z.infer<typeof legalSchema>;

/**
 * Front matter of a regulatory disclosure (src/content/disclosures/*.md), in the legal pages' layout and
 * listed on /disclosures. A new file is a new page at /<file name> (the studio names it from the title).
 */
export const disclosureSchema = z.strictObject({
  /** The page's h1 and <title>, and its name in the disclosures index. */
  title: plainText(1, 80),
  order,
  /** Meta description, and the disclosure's one line in the index: one or two sentences (50 to 160 characters). */
  description: plainText(50, 160),
  /** Date of the last revision (YYYY-MM-DD); shown as "Last updated: Month YYYY". */
  lastUpdated: z.coerce.date(),
  /**
   * The day the disclosure was withdrawn (YYYY-MM-DD): its address then answers a short notice, and it
   * leaves the index and the sitemap. Empty: in force. The text stays in the file's history.
   */
  withdrawn: z.preprocess((value) => (value === "" || value === null ? undefined : value), z.coerce.date().optional()),
});

export type DisclosureFrontMatter = z.infer<typeof disclosureSchema>;
