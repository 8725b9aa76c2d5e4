import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { formScriptUrl, routeFormProvider } from "../../testing/form-provider";
import { afterFrames, closePopupWhenShown, hydrated, recordCspViolations, trackErrors, trackThirdParty } from "../support/site";
import { slowPhone } from "../../testing/throttle";

const scripts = (page: Page) => page.locator("script[data-form-embed]");
const box = (page: Page) => page.locator("[data-form-state]");
const frame = (page: Page) => page.locator('iframe[title="Contact Us"]');
const loadButton = (page: Page) => page.getByRole("button", { name: "Load the contact form" });
/** How many times the provider's (fixture) script has run in this page. */
const embedRuns = (page: Page) => page.evaluate(() => (window as unknown as { __formEmbedLoaded?: number }).__formEmbedLoaded ?? 0);

test.beforeEach(async ({ page }) => {
  await closePopupWhenShown(page);
});

/** A returning visitor who accepted (set in the top document only: the provider's frame has its own storage). */
const consenting = (page: Page) =>
  page.addInitScript(() => {
    if (window === window.top) localStorage.setItem("cookieConsent", "accepted");
  });
const toContact = (page: Page) => page.evaluate(() => document.getElementById("contact")!.scrollIntoView({ behavior: "instant" }));
const toTop = (page: Page) => page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
/** Requests for the form island's own code (made the moment its nearness directive decides to hydrate it). */
const islandCode = (page: Page) => {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/ContactFormEmbed.")) urls.push(request.url());
  });
  return urls;
};

async function expectLoaded(page: Page) {
  await expect(scripts(page)).toHaveCount(1);
  await expect(scripts(page)).toHaveAttribute("src", formScriptUrl);
  await expect(box(page)).toHaveAttribute("data-form-state", "loaded");
  await expect(page.frameLocator('iframe[title="Contact Us"]').getByLabel("Work e-mail")).toBeVisible();
}

test.describe("with Accept All", () => {
  test.beforeEach(async ({ page }) => {
    await consenting(page);
  });

  test("nothing loads at the top; entering the section adds the script once and the frame loads in reserved space", async ({
    page,
    context,
  }) => {
    const requested = await routeFormProvider(context);
    const code = islandCode(page);
    await page.goto("/");
    await afterFrames(page);
    // The island was not even woken: far from the section, its code is not fetched.
    expect(code).toEqual([]);
    await expect(scripts(page)).toHaveCount(0);
    expect(requested).toEqual([]);
    const reserved = (await box(page).boundingBox())!.height;
    expect(reserved).toBeGreaterThan(400);

    await toContact(page);
    await expectLoaded(page);
    await expect(frame(page)).toHaveAttribute("data-form-name", "Contact Us");
    await expect(frame(page)).toHaveAttribute("id", "contact-us-demo");
    const [frameBox, containerBox] = [await frame(page).boundingBox(), await box(page).boundingBox()];
    expect(frameBox!.width).toBeCloseTo(await box(page).evaluate((el) => el.clientWidth), 0);
    expect(containerBox!.height).toBe(reserved);
  });

  test("the provider's script runs under the real CSP, with no violation", async ({ page, context }) => {
    await routeFormProvider(context);
    const violations = await recordCspViolations(page);
    await page.goto("/#contact");
    await expectLoaded(page);
    expect(await embedRuns(page)).toBe(1);
    expect(violations).toEqual([]);
  });

  test("leaving the section removes the script, coming back adds it again, and the frame stays", async ({ page, context }) => {
    await routeFormProvider(context);
    await page.goto("/#contact");
    await expectLoaded(page);
    await toTop(page);
    await expect(scripts(page)).toHaveCount(0);
    await expect(frame(page)).toHaveCount(1);
    await toContact(page);
    await expect(scripts(page)).toHaveCount(1);
    await expect.poll(() => embedRuns(page)).toBe(2);
    await expect(box(page)).toHaveAttribute("data-form-state", "loaded");
  });

  test("a window tall enough to show the section loads it without any scroll", async ({ page, context }) => {
    await routeFormProvider(context);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height });
    await expectLoaded(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("a reload at #contact (the browser restores the scroll position) loads the form with no further scroll", async ({
    page,
    context,
  }) => {
    await routeFormProvider(context);
    await page.goto("/");
    await toContact(page);
    await expectLoaded(page);
    await page.reload();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await expectLoaded(page);
  });

  test("a real back and forward navigation to the section loads the form with no further scroll", async ({ page, context }) => {
    await routeFormProvider(context);
    await page.goto("/");
    await toContact(page);
    await expectLoaded(page);
    await page.goto("/privacy-policy");
    await page.goBack();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await expectLoaded(page);
    await page.goForward();
    await expect(page).toHaveURL(/privacy-policy$/);
    await page.goBack();
    await expectLoaded(page);
  });

  test("a jump by keyboard (the header's Contact link) loads the form", async ({ page, context }) => {
    await routeFormProvider(context);
    await page.goto("/");
    await page.getByRole("link", { name: "Contact", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#contact$/);
    await expectLoaded(page);
  });

  test("on a slow phone, a scroll to the section before the island has hydrated still brings the form", async ({ page, context }) => {
    await routeFormProvider(context);
    await slowPhone(page);
    // The island's code held back until the scroll is made: the page is surely not hydrated yet, however
    // fast or loaded the machine (left to a race, a busy machine hydrated it first, and the state under
    // test was never reached).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_astro\/ContactFormEmbed\.[^/]*\.js$/, async (route) => (await held, await route.continue()));
    await page.goto("/", { waitUntil: "commit" });
    await page.locator("#contact").waitFor({ state: "attached" });
    await toContact(page);
    await expect(page.locator('astro-island[component-url*="/ContactFormEmbed."]')).toHaveAttribute("ssr", "");
    release();
    await expect(box(page)).toHaveAttribute("data-form-state", "loaded", { timeout: 20_000 });
    await expectLoaded(page);
  });

  test("Global Privacy Control holds the form back until a click, even after Accept All", async ({ page, context }) => {
    const requested = await routeFormProvider(context);
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }));
    await page.goto("/#contact");
    await expect(loadButton(page)).toBeVisible();
    await afterFrames(page);
    expect(requested).toEqual([]);
    await loadButton(page).click();
    await expectLoaded(page);
  });

  test("withdrawing consent (Cookie settings, then Reject All) takes the form away again", async ({ page, context }) => {
    await routeFormProvider(context);
    await page.goto("/#contact");
    await expectLoaded(page);
    await page.getByRole("button", { name: "Cookie settings" }).click();
    await page.getByRole("region", { name: "Cookie consent" }).getByRole("button", { name: "Reject All" }).click();
    await page.locator("#contact").scrollIntoViewIfNeeded();
    await expect(frame(page)).toHaveCount(0);
    await expect(scripts(page)).toHaveCount(0);
    await expect(loadButton(page)).toBeVisible();
  });

  test("a failed script shows the e-mail in a status message, with no uncaught error", async ({ page, context }) => {
    await routeFormProvider(context, "abort");
    const errors = trackErrors(page);
    await page.goto("/#contact");
    const status = page.locator("#contact").getByRole("status");
    await expect(status).toContainText("could not be loaded");
    await expect(status.getByRole("link", { name: "bizdev@example.com" })).toHaveAttribute("href", "mailto:bizdev@example.com");
    await expect(frame(page)).toHaveCount(0);
    // The failed script request itself is the only console error a browser writes.
    expect(errors.filter((e) => !e.includes("net::ERR_FAILED") && !e.includes("Failed to load resource"))).toEqual([]);
  });

  test("a frame that has not loaded after 10 s gives way to the fallback", async ({ page, context }) => {
    await routeFormProvider(context, "hang");
    await page.clock.install();
    await page.goto("/");
    await page.clock.pauseAt(Date.now() + 60_000);
    await toContact(page);
    await expect(scripts(page)).toHaveCount(1);
    const status = page.locator("#contact").getByRole("status");
    await page.clock.runFor(9_999);
    await expect(status).not.toContainText("could not be loaded");
    await page.clock.runFor(1);
    await expect(status).toContainText("could not be loaded");
    await expect(status.getByRole("link", { name: "bizdev@example.com" })).toHaveAttribute("href", "mailto:bizdev@example.com");
  });
});

test.describe("undecided, or after Reject All", () => {
  for (const [who, setup] of [
    ["an undecided visitor", async () => undefined],
    [
      "a visitor who rejected",
      (p: Page) =>
        p.addInitScript(() => {
          if (window === window.top) localStorage.setItem("cookieConsent", "rejected");
        }),
    ],
  ] as const) {
    test(`${who} at #contact: no third-party request until the click, which loads the form`, async ({ page, context, baseURL }) => {
      await routeFormProvider(context);
      await setup(page);
      const thirdParty = trackThirdParty(page, baseURL!);
      await page.goto("/#contact");
      await expect(loadButton(page)).toBeVisible();
      const section = page.locator("#contact");
      await expect(section).toContainText("Example Forms, Inc.");
      await expect(section).toContainText("receives your IP address");
      await expect(section.getByRole("link", { name: "bizdev@example.com" }).first()).toBeVisible();
      await page.mouse.wheel(0, 200);
      await afterFrames(page);
      expect(thirdParty).toEqual([]);
      await expect(scripts(page)).toHaveCount(0);
      await loadButton(page).click();
      await expectLoaded(page);
      expect(thirdParty.length).toBeGreaterThanOrEqual(2);
    });
  }

  test("Accept All given at the section loads the form without another click", async ({ page, context, baseURL }) => {
    await routeFormProvider(context);
    const thirdParty = trackThirdParty(page, baseURL!);
    await page.goto("/#contact");
    await hydrated(page, "ContactFormEmbed");
    await expect(loadButton(page)).toBeVisible();
    await afterFrames(page);
    expect(thirdParty).toEqual([]);
    await page.getByRole("region", { name: "Cookie consent" }).getByRole("button", { name: "Accept All" }).click();
    await expectLoaded(page);
  });

  test("a viewport resized to the whole page (as audit tools do) loads nothing", async ({ page, context }) => {
    const requested = await routeFormProvider(context);
    await page.goto("/");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height });
    await hydrated(page, "ContactFormEmbed");
    await expect(loadButton(page)).toBeVisible();
    await afterFrames(page);
    await expect(scripts(page)).toHaveCount(0);
    expect(requested).toEqual([]);
  });
});
