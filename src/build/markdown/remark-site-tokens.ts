import type { Root } from "mdast";
import { visit } from "unist-util-visit";
import type { VFile } from "vfile";
import { site, type SiteConfig } from "../../config/site.ts";

const TOKEN = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const ALLOWED = ["brandName", "developerName", "brokerDealerName", "brokerDealerCrd", "businessEmail", "formProviderName"] as const;

/**
 * Replaces {{token}} with the site configuration, so copy names no company itself: in Markdown text and
 * link URLs (remarkSiteTokens), and in landing copy that names a company (the contact form's provider).
 */
export function replaceSiteTokens(input: string, file: string, config: SiteConfig = site): string {
  return input.replace(TOKEN, (_match, name: string) => {
    if (!(ALLOWED as readonly string[]).includes(name)) {
      throw new Error(`${file}: unknown token {{${name}}} (allowed: ${ALLOWED.join(", ")})`);
    }
    return String(config[name as (typeof ALLOWED)[number]]);
  });
}

export function remarkSiteTokens() {
  return (tree: Root, file: VFile) => {
    const name = file.path ?? "markdown";
    visit(tree, (node) => {
      if (node.type === "text" || node.type === "inlineCode") node.value = replaceSiteTokens(node.value, name);
      if (node.type === "link") node.url = replaceSiteTokens(decodeURI(node.url), name);
    });
  };
}
