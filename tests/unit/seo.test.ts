import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { siteDefaults } from "@/config/site";
import { icoFromPngs, OG_HEIGHT, OG_WIDTH, renderIcon, renderOgImage } from "@/build/brand-images";
import { absoluteUrl, ogImageName, organizationJsonLd, robotsTxt, sitemapXml } from "@/build/seo";
import { documentFiles } from "@/build/content-files";
import { indexablePaths } from "@/build/documents";
import { projectRoot } from "../../scripts/build-inputs.ts";
import { INDEXABLE_PATHS } from "../support/pages.ts";

describe("absoluteUrl", () => {
  it.each([
    // The home page keeps its slash; other routes have none (trailingSlash "never").
    ["https://www.example.com", "/", "https://www.example.com/"],
    ["https://www.example.com", "/risk-disclosures", "https://www.example.com/risk-disclosures"],
    // Another configured origin.
    ["https://markets.example.org", "/cookie-policy", "https://markets.example.org/cookie-policy"],
  ])("%s + %s is %s", (site, path, expected) => {
    expect(absoluteUrl(site, path)).toBe(expected);
  });
});

describe("sitemap", () => {
  it("lists every built page except the 404, and nothing else", () => {
    const built = readdirSync(join(projectRoot, "src/pages"), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith(".astro") && !name.startsWith("404"));
    // index.astro, the disclosures index, and one [document].astro route that expands to the legal pages and disclosures.
    expect(built.sort()).toEqual(["[document].astro", "disclosures.astro", "index.astro"]);
    const paths = indexablePaths(documentFiles(projectRoot));
    expect(paths).toEqual(INDEXABLE_PATHS);
    const xml = sitemapXml("https://www.example.com", paths);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(paths.map((path) => absoluteUrl("https://www.example.com", path)));
    expect(xml).not.toContain("404");
  });

  it("is named by robots.txt", () => {
    expect(robotsTxt("https://www.example.com")).toContain("Sitemap: https://www.example.com/sitemap.xml");
  });
});

describe("ogImageName", () => {
  it.each([
    ["/", "home"],
    ["/privacy-policy", "privacy-policy"],
    [undefined, "404"],
  ])("%s is %s", (path, name) => expect(ogImageName(path)).toBe(name));
});

describe("organizationJsonLd", () => {
  it("names the organisation with URL, logo and e-mail contact point", () => {
    const data = JSON.parse(organizationJsonLd(siteDefaults));
    expect(data).toMatchObject({
      "@type": "Organization",
      name: siteDefaults.brandName,
      url: "https://www.example.com/",
      logo: "https://www.example.com/icon-512.png",
      contactPoint: { "@type": "ContactPoint", email: siteDefaults.businessEmail },
    });
  });

  it("cannot close its script element", () => {
    const json = organizationJsonLd({ ...siteDefaults, brandName: "</script><script>alert(1)</script>" });
    expect(json).not.toContain("</script");
    expect(JSON.parse(json).name).toBe("</script><script>alert(1)</script>");
  });
});

describe("brand images", () => {
  it("renders a 1200x630 PNG card even for a long title", async () => {
    const png = await renderOgImage({ brandName: "Brand", title: "A very long page title ".repeat(6), footer: "footer" });
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", OG_WIDTH, OG_HEIGHT]);
  });

  it("writes an ICO directory that points at its PNGs", async () => {
    const pngs = [
      { size: 16, png: await renderIcon(16) },
      { size: 32, png: await renderIcon(32) },
    ];
    const ico = icoFromPngs(pngs);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(2);
    const second = ico.subarray(6 + 16, 6 + 32);
    expect(second.readUInt8(0)).toBe(32);
    const offset = second.readUInt32LE(12);
    expect(ico.subarray(offset, offset + 8)).toEqual(pngs[1]!.png.subarray(0, 8));
  });
});
