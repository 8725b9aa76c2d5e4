import type { APIRoute } from "astro";
import { site } from "@/config/site";
import { webManifest } from "@/build/seo";

export const GET: APIRoute = () =>
  new Response(JSON.stringify(webManifest(site)), { headers: { "Content-Type": "application/manifest+json" } });
