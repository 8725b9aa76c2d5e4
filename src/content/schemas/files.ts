/**
 * Every content file and the schema it must meet: one table for the site's content collections
 * (src/content.config.ts), the tooling that reads the files from disk, and the content studio's
 * configuration (studio/config.ts), so that what the studio accepts is what the build accepts.
 */
import { contactSchema, featuresSchema, heroSchema, industriesSchema, popupSchema, statusCopySchema, whyUsSchema } from "./landing.ts";
import { disclosureSchema, legalSchema } from "./legal.ts";

/** The landing page's copy, one YAML file per section, in page order (src/content/landing/). */
export const LANDING_FILES = {
  hero: { file: "hero.yaml", label: "Hero", schema: heroSchema },
  features: { file: "features.yaml", label: "Features", schema: featuresSchema },
  industries: { file: "industries.yaml", label: "Industries", schema: industriesSchema },
  whyUs: { file: "why-us.yaml", label: "Why us", schema: whyUsSchema },
  contact: { file: "contact.yaml", label: "Contact", schema: contactSchema },
  popup: { file: "popup.yaml", label: "Under Development popup", schema: popupSchema },
  status: { file: "status.yaml", label: "Status dot", schema: statusCopySchema },
} as const;

export const LANDING_FOLDER = "src/content/landing";

/**
 * The document pages: Markdown with front matter, one file per page (the file name is the page's path).
 * `sections`: how many "## " headings the body has (the contents list is made from them). `create`: the
 * studio makes new pages here (the legal pages stay the specification's four).
 */
export const DOCUMENT_COLLECTIONS = {
  legal: { folder: "src/content/legal", label: "Legal pages", schema: legalSchema, sections: { min: 6, max: 6 }, create: false },
  disclosures: {
    folder: "src/content/disclosures",
    label: "Disclosures",
    schema: disclosureSchema,
    sections: { min: 1, max: 12 },
    create: true,
  },
} as const;

/** Disclosures that cannot be withdrawn, by address, and why (one sentence's end: "… cannot be withdrawn: <why>"). */
export const REQUIRED_DISCLOSURES: Readonly<Record<string, string>> = {
  "business-continuity": "FINRA Rule 4370 requires the summary of the business continuity plan on the website",
};
