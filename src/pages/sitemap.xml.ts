import type { APIRoute } from "astro";
import { site } from "@/config/site";
import { sitemapXml } from "@/build/seo";
import { documentEntries } from "@/build/document-entries";
import { indexablePaths } from "@/build/documents";

/** One sitemap of the real pages (tests/unit/sitemap.test.ts checks it against the built pages). */
export const GET: APIRoute = async () =>
  new Response(sitemapXml(site.siteUrl, indexablePaths(await documentEntries())), { headers: { "Content-Type": "application/xml" } });
