import { z } from "zod";

/** Front matter of a legal page (src/content/legal/*.md). */
/** Position among the documents in the footer and the sitemap (1 = first); unique across legal pages and disclosures. */
const order = z.number().int().min(1).max(99);

export const legalSchema = z.strictObject({
  /** The page's h1 and <title>. */
  title: z.string().trim().min(1).max(80),
  order,
  /** Meta description, one or two sentences (50 to 160 characters). */
  description: z.string().trim().min(50).max(160),
  /** Date of the last revision (YYYY-MM-DD); shown as "Last updated: Month YYYY". */
  lastUpdated: z.coerce.date(),
  /** The six "## " headings of the body, in order; the build checks the body against this list. */
  sections: z.array(z.string().trim().min(1)).length(6),
  /** Optional warning shown in a banner above the first section (Risk Disclosures). */
  warning: z.string().trim().min(1).optional(),
});

export type LegalFrontMatter = z.infer<typeof legalSchema>;

/** Front matter of a regulatory disclosure (src/content/disclosures/*.md): as a legal page, with its own number of sections. */
export const disclosureSchema = z.strictObject({
  /** The page's h1 and <title>. */
  title: z.string().trim().min(1).max(80),
  order,
  /** Meta description, one or two sentences (50 to 160 characters). */
  description: z.string().trim().min(50).max(160),
  /** Date of the last revision (YYYY-MM-DD); shown as "Last updated: Month YYYY". */
  lastUpdated: z.coerce.date(),
  /** The "## " headings of the body, in order (3 to 12); the build checks the body against this list. */
  sections: z.array(z.string().trim().min(1)).min(3).max(12),
});
