import type { APIRoute, GetStaticPaths } from "astro";
import { getEntry } from "astro:content";
import { site } from "@/config/site";
import { renderOgImage } from "@/build/brand-images";
import { ogImageName } from "@/build/seo";
import { documentEntries } from "@/build/document-entries";
import { DISCLOSURES_INDEX, DISCLOSURES_INDEX_TITLE } from "@/build/documents";

/**
 * One Open Graph card per page (/og/home.png, /og/<document>.png, /og/disclosures.png, /og/404.png), drawn
 * from its title. None in the reviewers' build: a review shows the pages and their words, never the cards
 * (they were a quarter of a preview build's page generation, about 2.5 s of it on a loaded machine).
 */
export const getStaticPaths = (async () => {
  if (import.meta.env.SITE_PREVIEW) return [];
  const hero = await getEntry("hero", "hero");
  if (!hero) throw new Error("src/content/landing/hero.yaml is missing");
  return [
    { params: { page: ogImageName("/") }, props: { title: hero.data.headline } },
    ...(await documentEntries()).map(({ slug, title, withdrawn }) => ({
      params: { page: ogImageName(`/${slug}`) },
      props: { title: withdrawn ? `${title} (withdrawn)` : title },
    })),
    { params: { page: ogImageName(DISCLOSURES_INDEX) }, props: { title: DISCLOSURES_INDEX_TITLE } },
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
