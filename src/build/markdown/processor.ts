import { rehypeHeadingIds, unified } from "@astrojs/markdown-remark";
import rehypeAutolinkHeadings from "rehype-autolink-headings";
import { remarkContentRules } from "./content-rules.ts";
import { headingLinkOptions } from "./heading-links.ts";
import { remarkSiteTokens } from "./remark-site-tokens.ts";

/**
 * The document pages' Markdown processor: the site's build (astro.config.mjs, `markdown.processor`) and the
 * content studio's preview pane (studio/preview/) render with this one, so the preview is the page's text.
 * The unified (remark/rehype) processor, not the default Sätteri, so that a remark plugin can fill company
 * facts into the legal text. Its first plugin refuses raw HTML and unsafe link targets (content-rules.ts). Ids first (Astro's own slugs, as the table of contents uses), then a copyable
 * link beside each h2.
 */
export const siteMarkdown = unified({
  remarkPlugins: [remarkContentRules, remarkSiteTokens],
  rehypePlugins: [rehypeHeadingIds, [rehypeAutolinkHeadings, headingLinkOptions]],
});
