// defineCollection from the package's own module, not the virtual `astro:content` (decision 0063): every build
// loads this file through a Vite server of its own, and the virtual module made it transform Astro's content
// runtime each time (123 modules against 62; a build 0.4–0.8 s longer). The same function, the same pages.
import { defineCollection } from "astro/content/config";
import { glob } from "astro/loaders";
import { DOCUMENT_COLLECTIONS, LANDING_FILES, LANDING_FOLDER } from "@/content/schemas/files";

/** One landing collection per section file (src/content/schemas/files.ts), so each file has its own exact schema. */
const landingFile = (name: keyof typeof LANDING_FILES) => glob({ pattern: LANDING_FILES[name].file, base: `./${LANDING_FOLDER}` });
const documentFiles = (name: keyof typeof DOCUMENT_COLLECTIONS) =>
  glob({ pattern: "*.md", base: `./${DOCUMENT_COLLECTIONS[name].folder}` });

export const collections = {
  hero: defineCollection({ loader: landingFile("hero"), schema: LANDING_FILES.hero.schema }),
  features: defineCollection({ loader: landingFile("features"), schema: LANDING_FILES.features.schema }),
  industries: defineCollection({ loader: landingFile("industries"), schema: LANDING_FILES.industries.schema }),
  whyUs: defineCollection({ loader: landingFile("whyUs"), schema: LANDING_FILES.whyUs.schema }),
  contact: defineCollection({ loader: landingFile("contact"), schema: LANDING_FILES.contact.schema }),
  popup: defineCollection({ loader: landingFile("popup"), schema: LANDING_FILES.popup.schema }),
  status: defineCollection({ loader: landingFile("status"), schema: LANDING_FILES.status.schema }),
  legal: defineCollection({ loader: documentFiles("legal"), schema: DOCUMENT_COLLECTIONS.legal.schema }),
  disclosures: defineCollection({ loader: documentFiles("disclosures"), schema: DOCUMENT_COLLECTIONS.disclosures.schema }),
};
