import type { APIRoute, GetStaticPaths } from "astro";
import { renderIcon } from "@/build/brand-images";
import { ICONS } from "@/build/seo";

/** PNG icons from the brand mark: the favicon fallback, the apple-touch-icon (full bleed) and the manifest's two. */
export const getStaticPaths = (() =>
  Object.values(ICONS).map((icon) => ({
    params: { icon: icon.name.replace(/\.png$/, "") },
    props: { size: icon.size, fullBleed: icon.name === ICONS.apple.name },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const png = await renderIcon(Number(props.size), { fullBleed: Boolean(props.fullBleed) });
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png" } });
};
