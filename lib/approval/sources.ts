/**
 * Where each page's text comes from: named in the build's failure line so that a writer knows which
 * file changed the page, and checked by a test to exist, so the table follows the code. `content` is
 * copy and configuration (what writers edit), `templates` the components and layouts that add words.
 */
import { documentFiles } from "../../src/build/content-files.ts";
import { DISCLOSURES_INDEX } from "../../src/build/documents.ts";

export interface PageSources {
  content: string[];
  templates: string[];
}

/** Text on every page: header, footer, cookie banner, the legal pages' titles in the footer, company facts (named as "the shared layout"). */
export const EVERY_PAGE: PageSources = {
  content: ["src/config/site.ts", "src/content/legal/*.md"],
  templates: [
    "src/layouts/BaseLayout.astro",
    "src/components/sections/SiteHeader.tsx",
    "src/components/sections/Footer.tsx",
    "src/components/sections/ConsentBanner.tsx",
    "src/shared/constants.ts",
    "src/build/documents.ts",
  ],
};

/**
 * Every page the project at `root` builds, with its own sources: the landing page, one per document file
 * (a withdrawn disclosure's notice too), the disclosures index, the 404 page.
 */
export function pageSources(root: string): Record<string, PageSources> {
  return {
    "/": {
      content: ["src/content/landing/*.yaml"],
      templates: [
        "src/pages/index.astro",
        "src/components/sections/**/*.tsx",
        "src/components/islands/**/*.tsx",
        "src/components/islands/tooltips/status.ts",
      ],
    },
    ...Object.fromEntries(
      documentFiles(root).map(({ slug, file, withdrawn }) => [
        `/${slug}`,
        {
          content: [file],
          templates: [
            "src/pages/[document].astro",
            withdrawn ? "src/components/sections/WithdrawnNotice.tsx" : "src/layouts/LegalLayout.astro",
          ],
        },
      ]),
    ),
    [DISCLOSURES_INDEX]: {
      content: ["src/content/disclosures/*.md"],
      templates: ["src/pages/disclosures.astro", "src/components/sections/DisclosuresIndex.tsx"],
    },
    "/404": { content: [], templates: ["src/pages/404.astro"] },
  };
}

/** The page's own content files, then those shared by every page, and its own templates; null when the table has no entry. */
export function sourcesOf(pagePath: string, root: string): PageSources | null {
  const own = pageSources(root)[pagePath];
  if (!own) return null;
  return { content: [...new Set([...own.content, ...EVERY_PAGE.content])], templates: own.templates };
}
