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

/** The document pages: Markdown with front matter, one file per page (the file name is the page's path). */
export const DOCUMENT_COLLECTIONS = {
  legal: { folder: "src/content/legal", label: "Legal pages", schema: legalSchema },
  disclosures: { folder: "src/content/disclosures", label: "Disclosures", schema: disclosureSchema },
} as const;
