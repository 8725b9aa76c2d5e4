import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { LEGAL_LAST_UPDATED } from "../../src/shared/constants.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { projectRoot } from "../../lib/root.ts";
import { afterScroll, CLOCK_FRAME_MS, DISCLOSURE_PAGES, openPage } from "../support/site.ts";

/** Every page in the document layout: the four legal pages (six sections each) and the disclosures. */
const documents = [
  ...documentFiles(projectRoot)
    .filter((doc) => doc.collection === "legal")
    .map(({ slug }) => ({ slug, sections: 6, lastUpdated: LEGAL_LAST_UPDATED })),
  ...DISCLOSURE_PAGES.map((p) => ({ slug: p.path.slice(1), sections: p.sections, lastUpdated: p.lastUpdated })),
];

for (const { slug, sections, lastUpdated } of documents) {
  test.describe(slug, () => {
    test("table of contents links to every section, and every section heading has a copyable link", async ({ page }) => {
      await openPage(page, `/${slug}`, { banner: "hidden" });
      await expect(page.getByText(`Last updated: ${lastUpdated}`)).toBeVisible();
      // No principal has reviewed these pages since reviews were recorded: the review counts from "Last updated".
      await expect(page.getByText(`Last reviewed: ${lastUpdated}`)).toBeVisible();
      const headings = page.locator(".prose-legal h2");
      const toc = page.getByRole("navigation", { name: "On this page" }).getByRole("link");
      await expect(headings).toHaveCount(sections);
      await expect(toc).toHaveCount(sections);
      for (let i = 0; i < sections; i++) {
        const heading = headings.nth(i);
        const id = await heading.getAttribute("id");
        const text = (await heading.textContent())!.trim();
        expect(id).toBeTruthy();
        await expect(toc.nth(i)).toHaveAttribute("href", `#${id}`);
        await expect(toc.nth(i)).toHaveText(text);
        // The heading's own accessible name stays just its text; the link beside it says where it goes.
        await expect(page.getByRole("heading", { level: 2, name: text, exact: true })).toHaveCount(1);
        const anchor = page.getByRole("link", { name: `Link to section: ${text}`, exact: true });
        await expect(anchor).toHaveAttribute("href", `#${id}`);
        await expect(anchor).toBeVisible();
      }
      // Following a section link lands on the section, clear of the sticky header.
      const last = headings.nth(sections - 1);
      const link = page.getByRole("link", { name: `Link to section: ${(await last.textContent())!.trim()}` });
      // In view first, so that the click itself scrolls nothing; the page then scrolls smoothly (in real
      // time) to the heading, and where it lands is judged once it is at rest.
      await afterScroll(page, () => link.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" })));
      await afterScroll(page, () => link.click());
      expect(new URL(page.url()).hash).toBe(`#${await last.getAttribute("id")}`);
      const top = (await last.boundingBox())!.y;
      const headerBottom = (await page.locator("header[data-scrolled]").boundingBox())!.y + 64;
      expect(top).toBeGreaterThanOrEqual(headerBottom - 1);
    });

    test("legal text has a comfortable measure: 65 to 75 characters per line at 1440 px", async ({ page }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await openPage(page, `/${slug}`, { banner: "hidden" });
      // Average over the page's paragraphs of at least three lines, counting lines from the rendered boxes.
      const measure = await page.locator(".prose-legal > p").evaluateAll((paragraphs) => {
        let chars = 0;
        let lines = 0;
        for (const p of paragraphs) {
          const range = document.createRange();
          range.selectNodeContents(p);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.bottom)));
          if (tops.size < 3) continue;
          // Full lines only: the last line of a paragraph is usually short.
          const text = (p.textContent ?? "").replace(/\s+/g, " ").trim();
          const perLine = text.length / tops.size;
          chars += perLine * (tops.size - 1);
          lines += tops.size - 1;
        }
        return lines ? chars / lines : 0;
      });
      expect(measure).toBeGreaterThanOrEqual(65);
      expect(measure).toBeLessThanOrEqual(75);
    });

    test("print: no header chrome, overlays or footer links; black on white; external URLs printed", async ({ page }) => {
      await openPage(page, `/${slug}`, { banner: "shown" });
      await page.emulateMedia({ media: "print" });
      await expect(page.locator("header[data-scrolled]")).toBeHidden();
      await expect(page.getByRole("region", { name: "Cookie consent" })).toBeHidden();
      await expect(page.getByRole("contentinfo").getByRole("navigation")).toBeHidden();
      await expect(page.locator(".heading-link").first()).toBeHidden();
      // The document itself still prints, with the footer's disclosures.
      await expect(page.locator(".prose-legal")).toBeVisible();
      await expect(page.getByRole("contentinfo")).toContainText("Member");
      const colours = await page.evaluate(() => {
        const seen = new Set<string>();
        for (const el of document.querySelectorAll("body, body *")) {
          const style = getComputedStyle(el);
          if (style.display === "none" || (el as HTMLElement).offsetParent === null) continue;
          seen.add(`color ${style.color}`);
          if (style.backgroundColor !== "rgba(0, 0, 0, 0)") seen.add(`background ${style.backgroundColor}`);
        }
        return [...seen].sort();
      });
      expect(colours).toEqual(["background rgb(255, 255, 255)", "color rgb(0, 0, 0)"]);
      const external = page.locator('.prose-legal a[href^="http"], footer a[href^="http"]').first();
      const href = await external.getAttribute("href");
      const after = await external.evaluate((el) => getComputedStyle(el, "::after").content);
      expect(after).toBe(`" (${href})"`);
      const internal = await page
        .locator('footer a[href="/risk-disclosures"]')
        .last()
        .evaluate((el) => getComputedStyle(el, "::after").content);
      expect(internal).toBe("none");
    });
  });
}

test.describe("contents beside the text", () => {
  const contents = (page: Page) => page.getByRole("navigation", { name: "On this page" });
  const marked = (page: Page) => contents(page).locator("[aria-current]");
  /**
   * Runs an action that scrolls the page, waits for that scroll to end, then runs the paused clock over
   * one animation frame: the contents list marks the section being read in the frame after a scroll.
   */
  async function scrolled(page: Page, action: () => Promise<unknown>) {
    await afterScroll(page, action);
    await page.clock.runFor(CLOCK_FRAME_MS);
  }

  test("from 1280 px the contents are a column beside the text that stays in view, marking the section being read", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPage(page, "/terms-of-service", { banner: "hidden" });
    const prose = (await page.locator(".prose-legal").boundingBox())!;
    const toc = () =>
      contents(page)
        .boundingBox()
        .then((box) => box!);
    expect((await toc()).x).toBeGreaterThanOrEqual(prose.x + prose.width);
    // At the top nothing has been reached yet.
    await expect(marked(page)).toHaveCount(0);

    // Following the fourth link: its section is the one marked, and only it.
    const links = contents(page).getByRole("link");
    await scrolled(page, () => links.nth(3).click());
    await expect(marked(page)).toHaveCount(1);
    await expect(links.nth(3)).toHaveAttribute("aria-current", "true");
    const viewport = page.viewportSize()!;
    const afterJump = await toc();
    expect(afterJump.y).toBeGreaterThanOrEqual(64);
    expect(afterJump.y + afterJump.height).toBeLessThanOrEqual(viewport.height);

    // Reading on to the end: the list is still in view and the last section is marked.
    await scrolled(page, () => page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" })));
    await expect(links.nth(5)).toHaveAttribute("aria-current", "true");
    await expect(marked(page)).toHaveCount(1);
    const atEnd = await toc();
    expect(atEnd.y).toBeGreaterThanOrEqual(0);
    expect(atEnd.y + atEnd.height).toBeLessThanOrEqual(viewport.height);

    // Back to the top: nothing marked again.
    await scrolled(page, () => page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" })));
    await expect(marked(page)).toHaveCount(0);
  });

  test("below 1280 px the contents stay a box above the text", async ({ page }) => {
    await page.setViewportSize({ width: 1279, height: 900 });
    await openPage(page, "/privacy-policy", { banner: "hidden" });
    const toc = (await contents(page).boundingBox())!;
    const prose = (await page.locator(".prose-legal").boundingBox())!;
    expect(toc.y + toc.height).toBeLessThanOrEqual(prose.y);
    await expect(contents(page)).toHaveCSS("position", "static");
  });

  test("print keeps the single column even from a wide window, and shows no section as current", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPage(page, "/cookie-policy", { banner: "hidden" });
    await scrolled(page, () => contents(page).getByRole("link").nth(2).click());
    await expect(marked(page)).toHaveCount(1);
    await page.emulateMedia({ media: "print" });
    await expect(contents(page)).toHaveCSS("position", "static");
    const toc = (await contents(page).boundingBox())!;
    const prose = (await page.locator(".prose-legal").boundingBox())!;
    expect(toc.y + toc.height).toBeLessThanOrEqual(prose.y);
    await expect(marked(page).first()).toHaveCSS("font-weight", "400");
  });

  test("without JavaScript the contents are plain working links", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto("/risk-disclosures");
    const links = contents(page).getByRole("link");
    await expect(links).toHaveCount(6);
    await expect(marked(page)).toHaveCount(0);
    const target = (await links.nth(4).getAttribute("href"))!;
    await links.nth(4).click();
    await expect(page).toHaveURL(new RegExp(`${target}$`));
    await expect(page.locator(`[id="${target.slice(1)}"]`)).toBeInViewport();
    await context.close();
  });
});
