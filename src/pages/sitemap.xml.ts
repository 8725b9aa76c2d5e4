import type { APIRoute } from "astro";
import { site } from "@/config/site";
import { sitemapXml } from "@/build/seo";

/** One sitemap of the real pages (tests/unit/sitemap.test.ts checks it against the built pages). */
export const GET: APIRoute = () => new Response(sitemapXml(site.siteUrl), { headers: { "Content-Type": "application/xml" } });
