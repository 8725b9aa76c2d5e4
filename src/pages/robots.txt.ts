import type { APIRoute } from "astro";
import { site } from "@/config/site";
import { robotsTxt } from "@/build/seo";

export const GET: APIRoute = () => new Response(robotsTxt(site.siteUrl), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
