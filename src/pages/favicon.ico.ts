import type { APIRoute } from "astro";
import { icoFromPngs, renderIcon } from "@/build/brand-images";

/** /favicon.ico for clients that ask for it without reading the page's icon links (16 and 32 px). */
export const GET: APIRoute = async () => {
  const ico = icoFromPngs([
    { size: 16, png: await renderIcon(16) },
    { size: 32, png: await renderIcon(32) },
  ]);
  return new Response(new Uint8Array(ico), { headers: { "Content-Type": "image/x-icon" } });
};
