import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import {
  contactSchema,
  featuresSchema,
  heroSchema,
  industriesSchema,
  popupSchema,
  statusCopySchema,
  whyUsSchema,
} from "@/content/schemas/landing";
import { disclosureSchema, legalSchema } from "@/content/schemas/legal";

/** One landing collection per section file, so each file has its own exact schema. */
const landingFile = (name: string) => glob({ pattern: `${name}.yaml`, base: "./src/content/landing" });

export const collections = {
  hero: defineCollection({ loader: landingFile("hero"), schema: heroSchema }),
  features: defineCollection({ loader: landingFile("features"), schema: featuresSchema }),
  industries: defineCollection({ loader: landingFile("industries"), schema: industriesSchema }),
  whyUs: defineCollection({ loader: landingFile("why-us"), schema: whyUsSchema }),
  contact: defineCollection({ loader: landingFile("contact"), schema: contactSchema }),
  popup: defineCollection({ loader: landingFile("popup"), schema: popupSchema }),
  status: defineCollection({ loader: landingFile("status"), schema: statusCopySchema }),
  legal: defineCollection({ loader: glob({ pattern: "*.md", base: "./src/content/legal" }), schema: legalSchema }),
  disclosures: defineCollection({ loader: glob({ pattern: "*.md", base: "./src/content/disclosures" }), schema: disclosureSchema }),
};
