import type { APIRoute, GetStaticPaths } from "astro";
import { getCollection, getEntry } from "astro:content";
import { site } from "@/config/site";
import { renderOgImage } from "@/build/brand-images";
import { ogImageName } from "@/build/seo";

/** One Open Graph card per page (/og/home.png, /og/<legal or disclosure slug>.png, /og/404.png), drawn from its title. */
export const getStaticPaths = (async () => {
  const hero = await getEntry("hero", "hero");
  if (!hero) throw new Error("src/content/landing/hero.yaml is missing");
  const documents = [...(await getCollection("legal")), ...(await getCollection("disclosures"))];
  return [
    { params: { page: ogImageName("/") }, props: { title: hero.data.headline } },
    ...documents.map((entry) => ({ params: { page: ogImageName(`/${entry.id}`) }, props: { title: entry.data.title } })),
    { params: { page: ogImageName(undefined) }, props: { title: "Page not found" } },
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const png = await renderOgImage({
    brandName: site.brandName,
    title: String(props.title),
    footer: `Institutional digital asset trading · ${new URL(site.siteUrl).host}`,
  });
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png" } });
};
