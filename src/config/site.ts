import { z } from "zod";

/**
 * The companies' facts, in one place. Every value is public (it ends up in static HTML),
 * so nothing secret belongs here. Defaults are clearly fictional; a real deployment sets the
 * PUBLIC_* environment variables at build time (see README, "Company facts").
 */
const httpsUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain });

export const siteConfigSchema = z.object({
  /** Canonical origin of the deployed site, without a trailing slash. */
  siteUrl: httpsUrl,
  /** Brand the visitor sees in the header, titles and copy. */
  brandName: z.string().min(2),
  /** Legal name of the technology company that builds the platform. */
  developerName: z.string().min(2),
  /** Website of the technology company (linked from the footer). */
  developerUrl: httpsUrl,
  /** Legal name of the affiliated FINRA/SIPC member broker-dealer that operates the ATS. */
  brokerDealerName: z.string().min(2),
  /** The broker-dealer's FINRA Central Registration Depository number (digits only). */
  brokerDealerCrd: z.string().regex(/^\d{1,9}$/, "must be 1 to 9 digits"),
  /** Business-development e-mail shown in the contact section and fallbacks. */
  businessEmail: z.email(),
  /** FINRA BrokerCheck page of the broker-dealer. */
  brokerCheckUrl: httpsUrl,
  /** Name of the contact form's provider, as the click-to-load line and the policies name it. */
  formProviderName: z.string().min(2),
  /** The embedded contact form's provider (LeadConnector-style: a script plus an iframe). */
  formEmbedScriptUrl: httpsUrl,
  /** Base URL of the provider's form frames; the form id is appended. */
  formFrameBaseUrl: httpsUrl,
  /** Identifier of the contact form at the provider. */
  formId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, - and _ only"),
  /** Optional analytics script, loaded only after Accept All and never under Global Privacy Control. Empty: none. */
  analyticsScriptUrl: z.union([httpsUrl, z.literal("")]),
  /**
   * Optional public status page that publishes the common Statuspage JSON (/api/v2/status.json). Set, the
   * header's dot shows its current indicator and description and links to it. Empty: the dot makes no
   * statement about the platform's health.
   */
  statusUrl: z.union([httpsUrl, z.literal("")]),
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;

export const siteDefaults: SiteConfig = {
  siteUrl: "https://www.example.com",
  brandName: "Fictive Markets",
  developerName: "Fictive Technologies, Inc.",
  developerUrl: "https://technologies.example.com",
  brokerDealerName: "Fictive Securities LLC",
  brokerDealerCrd: "000000",
  businessEmail: "bizdev@example.com",
  brokerCheckUrl: "https://brokercheck.finra.org/firm/summary/000000",
  formProviderName: "Example Forms, Inc.",
  formEmbedScriptUrl: "https://forms.example.net/js/form_embed.js",
  formFrameBaseUrl: "https://forms.example.net/widget/form/",
  formId: "contact-us-demo",
  analyticsScriptUrl: "",
  statusUrl: "",
};

/** Which PUBLIC_* variable overrides which field. */
export const siteEnvNames: Record<keyof SiteConfig, string> = {
  siteUrl: "PUBLIC_SITE_URL",
  brandName: "PUBLIC_BRAND_NAME",
  developerName: "PUBLIC_DEVELOPER_NAME",
  developerUrl: "PUBLIC_DEVELOPER_URL",
  brokerDealerName: "PUBLIC_BROKER_DEALER_NAME",
  brokerDealerCrd: "PUBLIC_BROKER_DEALER_CRD",
  businessEmail: "PUBLIC_BUSINESS_EMAIL",
  brokerCheckUrl: "PUBLIC_BROKERCHECK_URL",
  formProviderName: "PUBLIC_FORM_PROVIDER_NAME",
  formEmbedScriptUrl: "PUBLIC_FORM_EMBED_SCRIPT_URL",
  formFrameBaseUrl: "PUBLIC_FORM_FRAME_BASE_URL",
  formId: "PUBLIC_FORM_ID",
  analyticsScriptUrl: "PUBLIC_ANALYTICS_SCRIPT_URL",
  statusUrl: "PUBLIC_STATUS_URL",
};

/** Merges PUBLIC_* overrides into the defaults and validates; throws one message per bad field. */
export function loadSiteConfig(env: Record<string, string | undefined>): SiteConfig {
  const merged: Record<string, string> = { ...siteDefaults };
  for (const [field, name] of Object.entries(siteEnvNames)) {
    const value = env[name];
    if (value !== undefined) merged[field] = value.trim();
  }
  merged.siteUrl = merged.siteUrl.replace(/\/+$/, "");
  merged.statusUrl = merged.statusUrl.replace(/\/+$/, "");
  const result = siteConfigSchema.safeParse(merged);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const field = String(issue.path[0]) as keyof SiteConfig;
      return `  ${field} (${siteEnvNames[field]}): ${issue.message}`;
    });
    throw new Error(`src/config/site.ts: invalid site configuration\n${lines.join("\n")}`);
  }
  return result.data;
}

export const site: SiteConfig = loadSiteConfig(process.env);

/** The contact form frame's URL. */
export function formFrameUrl(config: SiteConfig = site): string {
  return new URL(encodeURIComponent(config.formId), config.formFrameBaseUrl.replace(/\/?$/, "/")).href;
}
