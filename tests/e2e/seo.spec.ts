import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { site } from "../../src/config/site.ts";
import { afterFrames, openPage, PAGES } from "../support/site.ts";
import { routeFormProvider } from "../../testing/form-provider.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { indexablePaths } from "../../src/build/documents.ts";
import { projectRoot } from "../../lib/root.ts";

/** A site URL (from the configured origin) as a path on the local server. */
const local = (url: string) => {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(new URL(site.siteUrl).origin);
  return parsed.pathname;
};

async function pngSize(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  expect(response.headers()["content-type"]).toContain("image/png");
  const body = await response.body();
  expect(body.subarray(1, 4).toString()).toBe("PNG");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

test("every page has its own title and description, English, canonical, Open Graph and Twitter card tags", async ({ page, request }) => {
  await routeFormProvider(page, "abort");
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  for (const { name, path } of PAGES) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(name === "404" ? 404 : 200);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const title = await page.title();
    const meta = async (selector: string) => page.locator(`head meta[${selector}]`).getAttribute("content");
    const description = await meta('name="description"');
    expect(title.length, name).toBeGreaterThan(10);
    expect(description?.length ?? 0, name).toBeGreaterThan(50);
    titles.add(title);
    descriptions.add(description!);
    expect(title).toContain(site.brandName);

    const canonical = page.locator('head link[rel="canonical"]');
    if (name === "404") {
      await expect(canonical).toHaveCount(0);
      expect(await meta('name="robots"')).toBe("noindex");
    } else {
      await expect(canonical).toHaveAttribute("href", path === "/" ? `${site.siteUrl}/` : `${site.siteUrl}${path}`);
      await expect(page.locator('head meta[name="robots"]')).toHaveCount(0);
      expect(await meta('property="og:url"')).toBe(await canonical.getAttribute("href"));
    }
    expect(await meta('property="og:type"')).toBe("website");
    expect(await meta('property="og:site_name"')).toBe(site.brandName);
    expect(await meta('property="og:title"')).toBe(title);
    expect(await meta('property="og:description"')).toBe(description);
    expect(await meta('name="twitter:card"')).toBe("summary_large_image");
    expect(await meta('name="theme-color"')).toBe("#0A1628");
    expect([await meta('property="og:image:width"'), await meta('property="og:image:height"')]).toEqual(["1200", "630"]);
    const image = await meta('property="og:image"');
    expect(await pngSize(request, local(image!)), `${name}: ${image}`).toEqual({ width: 1200, height: 630 });
  }
  expect(titles.size).toBe(PAGES.length);
  expect(descriptions.size).toBe(PAGES.length);
});

test("each page's Open Graph image is its own (generated per page)", async ({ request }) => {
  const bodies = await Promise.all(
    [
      "/og/home.png",
      "/og/terms-of-service.png",
      "/og/privacy-policy.png",
      "/og/risk-disclosures.png",
      "/og/cookie-policy.png",
      "/og/404.png",
    ].map(async (path) => (await request.get(path)).body().then((b) => b.toString("base64"))),
  );
  expect(new Set(bodies).size).toBe(6);
});

test("the landing page describes the organisation in JSON-LD", async ({ page }) => {
  await routeFormProvider(page, "abort");
  await page.goto("/");
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(blocks).toHaveLength(1);
  const data = JSON.parse(blocks[0]!);
  expect(data).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Organization",
    name: site.brandName,
    url: `${site.siteUrl}/`,
    contactPoint: { "@type": "ContactPoint", email: site.businessEmail },
  });
  expect(await pngSize(page.request, local(data.logo))).toEqual({ width: 512, height: 512 });
});

test("sitemap.xml lists exactly the real pages (the disclosures index with them) and robots.txt points to it", async ({ request }) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toMatch(/xml/);
  const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs).toEqual(
    indexablePaths(documentFiles(projectRoot)).map((path) => (path === "/" ? `${site.siteUrl}/` : `${site.siteUrl}${path}`)),
  );
  expect(locs).toContain(`${site.siteUrl}/disclosures`);
  for (const loc of locs) expect((await request.get(local(loc!))).status(), loc).toBe(200);

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const text = await robots.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).not.toMatch(/^Disallow: \/\s*$/m);
  expect(text).toContain(`Sitemap: ${site.siteUrl}/sitemap.xml`);
});

test("the favicon set and the web app manifest resolve", async ({ page, request }) => {
  await routeFormProvider(page, "abort");
  await page.goto("/terms-of-service");
  // The tab icon is the PNG alone: an SVG icon would be drawn by a document of its own in the page's
  // renderer (decision 0008). /favicon.svg stays as a file for tools that fetch it by name.
  await expect(page.locator('head link[rel="icon"]')).toHaveCount(1);
  const svgResponse = await request.get("/favicon.svg");
  expect(svgResponse.status()).toBe(200);
  expect(await svgResponse.text()).toContain("<svg");
  const png = page.locator('head link[rel="icon"][type="image/png"]');
  await expect(png).toHaveAttribute("sizes", "32x32");
  expect(await pngSize(request, (await png.getAttribute("href"))!)).toEqual({ width: 32, height: 32 });
  const apple = await page.locator('head link[rel="apple-touch-icon"]').getAttribute("href");
  expect(await pngSize(request, apple!)).toEqual({ width: 180, height: 180 });
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);

  const manifestHref = await page.locator('head link[rel="manifest"]').getAttribute("href");
  const manifestResponse = await request.get(manifestHref!);
  expect(manifestResponse.status()).toBe(200);
  expect(manifestResponse.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = await manifestResponse.json();
  expect(manifest).toMatchObject({ name: site.brandName, start_url: "/", theme_color: "#0A1628" });
  for (const icon of manifest.icons.filter((i: { type: string }) => i.type === "image/png")) {
    const [w, h] = icon.sizes.split("x").map(Number);
    expect(await pngSize(request, icon.src)).toEqual({ width: w, height: h });
  }
});

test("the browser finds no missing resource (favicon, manifest, icons) on load", async ({ page }) => {
  const failures: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  // Opened as a visitor meets it, its clock run 1.5 s past load; then two rendered frames, by which the
  // page has asked for everything it decided to until then.
  await openPage(page, "/privacy-policy", { banner: "shown", form: "abort" });
  await afterFrames(page);
  expect(failures).toEqual([]);
  // Control: a missing resource is reported.
  await page.evaluate(() => fetch("/no-such-file.png"));
  await expect.poll(() => failures.length).toBe(1);
});
