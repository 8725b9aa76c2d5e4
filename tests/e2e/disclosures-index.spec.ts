/**
 * The disclosures index (/disclosures): every disclosure in force with its date and one line, in the
 * site's layout, linked from every page's footer, with the checks every page gets (axe at both widths,
 * the keyboard's order and focus, its own title, canonical URL and Open Graph card), and no script.
 */
import { expect, test } from "../support/test.ts";
import { site } from "../../src/config/site.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { disclosuresInForce } from "../../src/build/documents.ts";
import { projectRoot } from "../../lib/root.ts";
import { afterScroll, axeViolations, openPage, WIDTHS } from "../support/site.ts";
import { focused, prepare, tabbables } from "../support/keyboard.ts";

const PATH = "/disclosures";
const inForce = disclosuresInForce(documentFiles(projectRoot));

test("lists every disclosure in force with its date and one line, each link resolving", async ({ page, request }) => {
  await openPage(page, PATH, { banner: "hidden" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Disclosures");
  await expect(page).toHaveTitle(`Disclosures | ${site.brandName}`);
  const items = page.locator("main li");
  await expect(items).toHaveCount(inForce.length);
  for (const [i, doc] of inForce.entries()) {
    const item = items.nth(i);
    await expect(item.getByRole("heading", { level: 2 })).toHaveText(doc.title);
    await expect(item.getByRole("link")).toHaveAttribute("href", `/${doc.slug}`);
    await expect(item).toContainText(/Last updated: [A-Z][a-z]+ \d{4}/);
    expect((await request.get(`/${doc.slug}`)).status()).toBe(200);
  }
  await expect(page.getByRole("link", { name: "Business Continuity Plan Summary" })).toBeVisible();
});

test("every page's footer links the index beside the legal pages", async ({ page }) => {
  for (const path of ["/", "/terms-of-service", "/business-continuity", "/no-such-page"]) {
    await openPage(page, path, { banner: "hidden", skipPopup: path === "/" });
    const legal = page.getByRole("navigation", { name: "Legal" });
    await expect(legal.getByRole("link", { name: "Disclosures", exact: true })).toHaveAttribute("href", PATH);
    await expect(legal.getByRole("link", { name: "Business Continuity Plan Summary" })).toHaveCount(0);
  }
});

test("has its own title, description, canonical URL and Open Graph card, and loads no script", async ({ page, request }) => {
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
  await openPage(page, PATH, { banner: "shown" });
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", `${site.siteUrl}${PATH}`);
  await expect(page.locator('head meta[name="robots"]')).toHaveCount(0);
  expect(((await page.locator('head meta[name="description"]').getAttribute("content")) ?? "").length).toBeGreaterThan(50);
  const card = await request.get("/og/disclosures.png");
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toContain("image/png");
  expect(scripts).toEqual([]);
});

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 720 } });

    for (const banner of ["shown", "hidden"] as const) {
      test(`cookie banner ${banner}: no axe violations, nothing wider than the window`, async ({ page }) => {
        await openPage(page, PATH, { banner });
        expect(await axeViolations(page, { inPage: true })).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      });
    }

    test("Tab reaches every link in DOM order, visibly focused, never hidden", async ({ page }) => {
      await openPage(page, PATH, { banner: "shown" });
      await prepare(page);
      const expected = await tabbables(page);
      const visited: string[] = [];
      const problems: string[] = [];
      for (let i = 0; i < expected.length; i++) {
        await afterScroll(page, () => page.keyboard.press("Tab"));
        const report = await focused(page);
        visited.push(report.key);
        if (!report.indicator) problems.push(`${report.key}: no visible focus indicator`);
        if (report.visibleSamples === 0) problems.push(`${report.key}: fully hidden`);
      }
      expect(visited).toEqual(expected);
      expect(problems).toEqual([]);
    });
  });
}
