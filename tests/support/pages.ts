/** The site's pages as the tests expect them (plain data, for every suite: unit, Playwright and the engines). */
export const LEGAL_PAGES = [
  { path: "/terms-of-service", title: "Terms of Service" },
  { path: "/privacy-policy", title: "Privacy Policy" },
  { path: "/risk-disclosures", title: "Risk Disclosures" },
  { path: "/cookie-policy", title: "Cookie Policy" },
] as const;

/** The regulatory disclosures, in the same layout as the legal pages, with their own sections and dates. */
export const DISCLOSURE_PAGES = [
  { path: "/business-continuity", title: "Business Continuity Plan Summary", sections: 7, lastUpdated: "November 2026" },
] as const;

/** Every page the sitemap lists, in its order: the landing page, the legal pages in the footer's order, the index, the disclosures. */
export const INDEXABLE_PATHS = ["/", ...LEGAL_PAGES.map((p) => p.path), "/disclosures", ...DISCLOSURE_PAGES.map((p) => p.path)];
