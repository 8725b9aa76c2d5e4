/** The site's document routes (legal pages and disclosures), in footer order. */

export const LEGAL_SLUGS = ["terms-of-service", "privacy-policy", "risk-disclosures", "cookie-policy"] as const;
export type LegalSlug = (typeof LEGAL_SLUGS)[number];
/** Regulatory disclosures the firm must post (FINRA Rule 4370(e): the business continuity summary), after the legal pages. */
export const DISCLOSURE_SLUGS = ["business-continuity"] as const;
/** Every page rendered by the document layout: the legal pages, then the disclosures. */
export const DOCUMENT_SLUGS = [...LEGAL_SLUGS, ...DISCLOSURE_SLUGS] as const;
export type DocumentSlug = (typeof DOCUMENT_SLUGS)[number];
