import type { ContactFormEmbedProps } from "../components/islands/ContactForm/ContactFormEmbed.tsx";
import type { ContactCopy } from "../content/schemas/landing.ts";
import { formFrameUrl, site as defaultSite, type SiteConfig } from "../config/site.ts";
import { replaceSiteTokens } from "./markdown/remark-site-tokens.ts";

/**
 * The contact form island's props from the contact copy (`file` names it in errors) and the site
 * configuration: one mapping for the landing page (src/pages/index.astro) and the studio's preview.
 */
export function contactFormProps(copy: ContactCopy, file: string, config: SiteConfig = defaultSite): ContactFormEmbedProps {
  return {
    formTitle: copy.formTitle,
    formId: config.formId,
    frameUrl: formFrameUrl(config),
    scriptUrl: config.formEmbedScriptUrl,
    email: config.businessEmail,
    placeholderText: copy.placeholderText,
    fallbackText: copy.fallbackText,
    consentText: replaceSiteTokens(copy.consentText, file, config),
    loadButtonLabel: copy.loadButtonLabel,
    orWriteText: copy.orWriteText,
  };
}
