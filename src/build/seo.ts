/** Search and sharing metadata: canonical URLs, the sitemap, robots.txt, the web app manifest and JSON-LD. */
import type { SiteConfig } from "../config/site.ts";
import { BRAND_COLORS } from "../shared/brand.ts";

/** Absolute URL of a site path: "/" keeps its slash, other routes have none (trailingSlash "never"). */
export function absoluteUrl(siteUrl: string, path: string): string {
  const href = new URL(path, `${siteUrl}/`).href;
  return path === "/" ? href : href.replace(/\/$/, "");
}

/** Name of a page's Open Graph image under /og/: "home" for "/", the slug otherwise, "404" without a path. */
export function ogImageName(path: string | undefined): string {
  if (path === undefined) return "404";
  return path === "/" ? "home" : path.replace(/^\//, "");
}

/** The sitemap of the given site paths (`indexablePaths` in documents.ts). */
export function sitemapXml(siteUrl: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `<url><loc>${absoluteUrl(siteUrl, path)}</loc></url>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n`;
}

export function robotsTxt(siteUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}\n`;
}

export const THEME_COLOR = BRAND_COLORS.ink950;

/** Sizes of the PNG icons: the manifest's two, the apple-touch-icon and the favicon fallback. */
export const ICONS = {
  favicon: { name: "favicon-32.png", size: 32 },
  apple: { name: "apple-touch-icon.png", size: 180 },
  small: { name: "icon-192.png", size: 192 },
  large: { name: "icon-512.png", size: 512 },
} as const;

export function webManifest(site: SiteConfig) {
  return {
    name: site.brandName,
    short_name: site.brandName,
    description: "Institutional digital asset trading: tokenization, net settling and clearing.",
    start_url: "/",
    scope: "/",
    display: "browser",
    lang: "en",
    background_color: "#FFFFFF",
    theme_color: THEME_COLOR,
    icons: [
      { src: `/${ICONS.small.name}`, type: "image/png", sizes: "192x192" },
      { src: `/${ICONS.large.name}`, type: "image/png", sizes: "512x512" },
    ],
  };
}

/** schema.org Organization of the landing page. `<` is escaped so the JSON cannot close its script element. */
export function organizationJsonLd(site: SiteConfig): string {
  const data = {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: site.brandName,
    url: absoluteUrl(site.siteUrl, "/"),
    logo: absoluteUrl(site.siteUrl, `/${ICONS.large.name}`),
    contactPoint: { "@type": "ContactPoint", contactType: "business development", email: site.businessEmail },
  };
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
