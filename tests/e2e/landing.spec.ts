import { expect, test } from "../support/test.ts";
import { routeFormProvider } from "../../testing/form-provider";
import { afterFrames, afterScroll, closePopupWhenShown, DISCLOSURE_PAGES, LEGAL_PAGES, SCROLL_START_FRAMES } from "../support/site";

test.beforeEach(async ({ context, page }) => {
  await routeFormProvider(context);
  await closePopupWhenShown(page);
});

test("sections appear in the spec's order with their card counts", async ({ page }) => {
  await page.goto("/");
  const ids = await page.locator("main > section").evaluateAll((sections) => sections.map((s) => s.id));
  expect(ids).toEqual(["introduction", "features", "industries", "why-us", "contact"]);

  const hero = page.locator("#introduction");
  await expect(hero.getByRole("link", { name: "Explore Our Platform" })).toHaveAttribute("href", "#features");
  await expect(hero.getByRole("link", { name: "Partner With Us" })).toHaveAttribute("href", "#contact");
  await expect(hero.getByRole("list", { name: "Why clients trust us" }).getByRole("listitem")).toHaveText([
    /Proven Excellence/,
    /Industry Standard/,
    /Innovation Leader/,
  ]);

  const features = page.locator("#features");
  await expect(features.locator("article h3")).toHaveText([
    "Regulatory Excellence",
    "Advanced Infrastructure",
    "Global Market Access",
    "Institutional Grade Platform",
  ]);
  await expect(features.getByRole("list", { name: "Highlights" }).locator("h3")).toHaveText([
    "Bank-Grade Security",
    "Dedicated Support",
    "Regulated ATS",
    "Ultra-Low Latency",
  ]);

  const industries = page.locator("#industries");
  await expect(industries.getByRole("heading", { level: 2 })).toHaveText("Impact Across Industries");
  await expect(industries.locator("li h3")).toHaveCount(8);
  await expect(industries.locator("li h3")).toContainText([
    "Hedge Funds",
    "Broker Dealers",
    "Market Makers",
    "Exchanges",
    "Lending Desks",
    "Banks",
    "Custodians",
  ]);
  await expect(industries.locator("article h3")).toHaveText(["Tokenization", "Net Settling", "Clearing"]);

  const why = page.locator("#why-us");
  await expect(why.getByRole("heading", { level: 2 })).toHaveText("Why Institutions Choose Us");
  await expect(why.locator("article h3")).toHaveText(["Market Leadership", "Proven Security", "Global Reach", "Institutional Focus"]);

  const contact = page.locator("#contact");
  await expect(contact.getByRole("link", { name: "bizdev@example.com" }).first()).toHaveAttribute("href", "mailto:bizdev@example.com");
  await expect(contact.getByRole("heading", { name: "Contact Us" })).toBeVisible();
});

test("the page carries the spec's marketing claims", async ({ page }) => {
  await page.goto("/");
  const text = await page.locator("main").innerText();
  for (const claim of [/U\.S\. and European markets/, /regulated (ATS|alternative trading system)/i, /256-bit/, /24\/7/, /< 1 ms/])
    expect(text).toMatch(claim);
});

test.describe("header", () => {
  for (const [name, id] of [
    ["About", "introduction"],
    ["Features", "features"],
    ["Contact", "contact"],
  ] as const) {
    test(`${name} scrolls to #${id}, below the sticky header`, async ({ page }) => {
      await page.goto("/");
      // The page scrolls smoothly (in real time): where the section lands is judged once it is at rest.
      await afterScroll(page, () => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }).click());
      await expect(page).toHaveURL(new RegExp(`#${id}$`));
      const header = (await page.locator("header").boundingBox())!;
      const top = await page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top));
      if (id === "introduction") expect(top, "the first section, at the top").toBeGreaterThanOrEqual(0);
      else expect(top, "the section's top, below the header").toBeGreaterThanOrEqual(header.height);
      expect(top).toBeLessThanOrEqual(id === "introduction" ? header.height + 1 : header.height + 40);
    });
  }

  test("shows the pulsing status dot on the landing page only", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Platform status" })).toBeVisible();
    await page.goto("/privacy-policy");
    await expect(page.getByRole("button", { name: "Platform status" })).toHaveCount(0);
  });

  for (const { path } of LEGAL_PAGES) {
    test(`${path} has a Home link to / instead of the section links`, async ({ page }) => {
      await page.goto(path);
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link", { name: "Features" })).toHaveCount(0);
      await nav.getByRole("link", { name: "Home" }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }

  test("data-scrolled is false at 50 px, true at 51 px and false again at 0", async ({ page }) => {
    await page.goto("/");
    const header = page.locator("header");
    await expect(header).toHaveAttribute("data-scrolled", "false");
    const background = () => header.evaluate((el) => getComputedStyle(el).boxShadow);
    const unscrolledShadow = await background();
    for (const [y, expected] of [
      [50, "false"],
      [51, "true"],
      [0, "false"],
    ] as const) {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await expect(header).toHaveAttribute("data-scrolled", expected);
      if (expected === "true") await expect.poll(background).not.toBe(unscrolledShadow);
    }
  });

  test("tabbing through the header while scrolled down does not move the page", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => window.scrollTo({ top: 1500, behavior: "instant" }));
    for (const name of ["About", "Features", "Contact"]) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }).focus();
      // A scroll into view (instant or smooth) would have moved the page within these rendered frames.
      await afterFrames(page, SCROLL_START_FRAMES);
      expect(await page.evaluate(() => Math.round(window.scrollY))).toBe(1500);
    }
  });

  test("keeps every link reachable at 320 px", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/");
    for (const name of ["About", "Features", "Contact"])
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});

test.describe("footer", () => {
  test("links to the four legal pages and the disclosures index, which resolve", async ({ page, request }) => {
    await page.goto("/");
    const legal = page.getByRole("navigation", { name: "Legal" }).getByRole("link");
    await expect(legal).toHaveText([...LEGAL_PAGES.map((p) => p.title), "Disclosures"]);
    for (const href of await legal.evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
      expect((await request.get(href!)).status()).toBe(200);
    }
  });

  test("opens external links safely", async ({ page }) => {
    await page.goto("/");
    const external = page.locator('footer a[href^="http"]');
    expect(await external.count()).toBeGreaterThanOrEqual(4);
    for (const link of await external.all()) {
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", /(?=.*noopener)(?=.*noreferrer)/);
    }
    await expect(page.locator("footer").getByRole("link", { name: /Fictive Technologies/ })).toHaveAttribute(
      "href",
      "https://technologies.example.com",
    );
    await expect(page.locator("footer").getByRole("link", { name: /BrokerCheck/ })).toHaveAttribute(
      "href",
      "https://brokercheck.finra.org/firm/summary/000000",
    );
  });

  test("describes both companies, the CRD number, risk and the 2025 copyright", async ({ page }) => {
    await page.goto("/terms-of-service");
    const footer = page.locator("footer");
    await expect(footer).toContainText("Fictive Technologies, Inc.");
    await expect(footer).toContainText("Fictive Securities LLC (CRD #000000)");
    await expect(footer).toContainText(/Member FINRA( \(opens in a new tab\))? \/ SIPC/);
    await expect(footer).toContainText(/Digital assets are highly volatile/);
    await expect(footer).toContainText("© 2025");
  });
});

test.describe("legal pages", () => {
  for (const { path, title } of LEGAL_PAGES) {
    test(`${title} has six numbered h2 sections with anchors and the date`, async ({ page }) => {
      await page.goto(path);
      const sections = page.locator(".prose-legal h2");
      await expect(sections).toHaveCount(6);
      for (const heading of await sections.all()) await expect(heading).toHaveAttribute("id", /^[a-z0-9-]+$/);
      await expect(page.getByText("Last updated: January 2025")).toBeVisible();
      await expect(page.locator("main")).not.toContainText("{{");
    });
  }
  for (const { path, title, sections, lastUpdated } of DISCLOSURE_PAGES) {
    test(`${title} has its ${sections} numbered h2 sections with anchors and its own date`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      const headings = page.locator(".prose-legal h2");
      await expect(headings).toHaveCount(sections);
      for (const heading of await headings.all()) await expect(heading).toHaveAttribute("id", /^[a-z0-9-]+$/);
      await expect(page.getByText(`Last updated: ${lastUpdated}`)).toBeVisible();
      await expect(page.locator("main")).not.toContainText("{{");
    });
  }

  test("Terms of Service covers the spec's six topics, ending with binding arbitration", async ({ page }) => {
    await page.goto("/terms-of-service");
    const headings = await page.locator(".prose-legal h2").allTextContents();
    for (const [i, topic] of [/acceptance/i, /services/i, /user responsibilities/i, /risk/i, /liability/i, /governing law/i].entries())
      expect(headings[i]).toMatch(topic);
    await expect(page.locator(".prose-legal")).toContainText(/binding arbitration/i);
  });

  test("Risk Disclosures shows a warning banner before six risk sections", async ({ page }) => {
    await page.goto("/risk-disclosures");
    await expect(page.getByRole("note", { name: "Risk warning" })).toBeVisible();
    const headings = await page.locator(".prose-legal h2").allTextContents();
    for (const [i, topic] of ["Market", "Liquidity", "Technology", "Regulatory", "Counterparty", "Operational"].entries())
      expect(headings[i]).toContain(topic);
  });

  test("Cookie Policy names the cookieConsent key and the cookie types", async ({ page }) => {
    await page.goto("/cookie-policy");
    const text = page.locator(".prose-legal");
    for (const word of ["cookieConsent", /essential/i, /performance/i, /security/i]) await expect(text).toContainText(word);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the landing page's content, anchors and e-mail work, and no banner shows", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    for (const heading of ["Impact Across Industries", "Why Institutions Choose Us"])
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/#contact$/);
    await expect(page.locator("#contact")).toBeInViewport();
    await expect(page.locator('#contact a[href="mailto:bizdev@example.com"]').first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Cookie consent" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Cookie settings" })).toBeHidden();
    await expect(page.locator("header")).toHaveAttribute("data-scrolled", "false");
  });
});
