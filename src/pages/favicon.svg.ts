import type { APIRoute } from "astro";
import { brandMarkSvg } from "@/shared/brand";

/** /favicon.svg, for tools that fetch it by name (pages carry the same mark inline, as a data URI). */
export const GET: APIRoute = () => new Response(`${brandMarkSvg()}\n`, { headers: { "Content-Type": "image/svg+xml" } });
