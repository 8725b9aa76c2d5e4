import { expect, test, type Page } from "@playwright/test";
import { formScriptUrl, routeFormProvider } from "../support/form-provider";
import { hydrated, trackErrors } from "../support/site";

const scripts = (page: Page) => page.locator("script[data-form-embed]");
const box = (page: Page) => page.locator("[data-form-state]");

/** Scrolls so the contact section's top is `viewports` viewport heights below the bottom of the screen. */
async function scrollToBefore(page: Page, viewports: number) {
  await page.evaluate((v) => {
    const top = document.getElementById("contact")!.getBoundingClientRect().top + window.scrollY;
    window.scrollTo({ top: Math.max(0, top - innerHeight - v * innerHeight), behavior: "instant" });
  }, viewports);
}

test("the script is absent at the top, added once within a viewport of #contact, and the frame loads in reserved space", async ({
  page,
  context,
}) => {
  const requested = await routeFormProvider(context);
  await page.goto("/");
  await hydrated(page, "ContactFormEmbed");
  await page.waitForTimeout(300);
  await expect(scripts(page)).toHaveCount(0);
  expect(requested).toEqual([]);

  const reserved = (await box(page).boundingBox())!.height;
  expect(reserved).toBeGreaterThan(400);
  await scrollToBefore(page, 2);
  await page.waitForTimeout(300);
  await expect(scripts(page)).toHaveCount(0);
  await scrollToBefore(page, 0.8);
  await expect(scripts(page)).toHaveCount(1);
  await expect(scripts(page)).toHaveAttribute("src", formScriptUrl);

  await page.locator("#contact").scrollIntoViewIfNeeded();
  const frame = page.locator('iframe[title="Contact Us"]');
  await expect(frame).toHaveAttribute("data-form-name", "Contact Us");
  await expect(frame).toHaveAttribute("id", "contact-us-demo");
  await expect(box(page)).toHaveAttribute("data-form-state", "loaded");
  await expect(page.frameLocator('iframe[title="Contact Us"]').getByLabel("Work e-mail")).toBeVisible();
  const [frameBox, containerBox] = [await frame.boundingBox(), await box(page).boundingBox()];
  expect(frameBox!.width).toBeCloseTo(await box(page).evaluate((el) => el.clientWidth), 0);
  expect(containerBox!.height).toBe(reserved);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await page.locator("#contact").scrollIntoViewIfNeeded();
  await expect(scripts(page)).toHaveCount(1);
});

test("a viewport resized to the whole page (as audit tools do), without scrolling, loads nothing", async ({ page, context }) => {
  const requested = await routeFormProvider(context);
  await page.goto("/");
  await hydrated(page, "ContactFormEmbed");
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height });
  await page.waitForTimeout(500);
  await expect(scripts(page)).toHaveCount(0);
  expect(requested).toEqual([]);
});

test("navigating to #contact loads the form", async ({ page, context }) => {
  await routeFormProvider(context);
  await page.goto("/#contact");
  await expect(scripts(page)).toHaveCount(1);
  await expect(box(page)).toHaveAttribute("data-form-state", "loaded");
});

test("a failed script shows the e-mail in a status message, with no uncaught error", async ({ page, context }) => {
  await routeFormProvider(context, "abort");
  const errors = trackErrors(page);
  await page.goto("/#contact");
  const status = page.locator("#contact").getByRole("status");
  await expect(status).toContainText("could not be loaded");
  await expect(status.getByRole("link", { name: "bizdev@example.com" })).toHaveAttribute("href", "mailto:bizdev@example.com");
  await expect(page.locator('iframe[title="Contact Us"]')).toHaveCount(0);
  // The failed script request itself is the only console error a browser writes.
  expect(errors.filter((e) => !e.includes("net::ERR_FAILED") && !e.includes("Failed to load resource"))).toEqual([]);
});

test("a frame that has not loaded after 10 s gives way to the fallback", async ({ page, context }) => {
  await routeFormProvider(context, "hang");
  await page.clock.install();
  await page.goto("/");
  await hydrated(page, "ContactFormEmbed");
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.locator("#contact").scrollIntoViewIfNeeded();
  await expect(scripts(page)).toHaveCount(1);
  const status = page.locator("#contact").getByRole("status");
  await page.clock.runFor(9_999);
  await expect(status).not.toContainText("could not be loaded");
  await page.clock.runFor(1);
  await expect(status).toContainText("could not be loaded");
  await expect(status.getByRole("link", { name: "bizdev@example.com" })).toHaveAttribute("href", "mailto:bizdev@example.com");
});

for (const [reason, setup] of [
  ["after Reject All", (p: Page) => p.addInitScript(() => localStorage.setItem("cookieConsent", "rejected"))],
  [
    "under Global Privacy Control",
    (p: Page) => p.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true })),
  ],
] as const) {
  test(`${reason}, scrolling does not load the form; a button does`, async ({ page, context }) => {
    const requested = await routeFormProvider(context);
    await setup(page);
    await page.goto("/");
    await hydrated(page, "ContactFormEmbed");
    await page.locator("#contact").scrollIntoViewIfNeeded();
    const load = page.getByRole("button", { name: "Load the contact form" });
    await expect(load).toBeVisible();
    await expect(page.locator("#contact")).toContainText("third-party");
    await expect(page.locator("#contact").getByRole("link", { name: "bizdev@example.com" }).first()).toBeVisible();
    await page.waitForTimeout(300);
    await expect(scripts(page)).toHaveCount(0);
    expect(requested).toEqual([]);
    await load.click();
    await expect(scripts(page)).toHaveCount(1);
    await expect(box(page)).toHaveAttribute("data-form-state", "loaded");
  });
}

test("a Reject All chosen after the page loaded also holds the form back until a click", async ({ page, context }) => {
  const requested = await routeFormProvider(context);
  await page.goto("/");
  await hydrated(page, "ContactFormEmbed");
  await hydrated(page, "ConsentBanner");
  await page.getByRole("button", { name: "Reject All" }).click();
  await page.locator("#contact").scrollIntoViewIfNeeded();
  await expect(page.getByRole("button", { name: "Load the contact form" })).toBeVisible();
  await expect(scripts(page)).toHaveCount(0);
  expect(requested).toEqual([]);
});

test("the script is removed when the visitor leaves the page", async ({ page, context }) => {
  await routeFormProvider(context);
  await page.goto("/#contact");
  await expect(scripts(page)).toHaveCount(1);
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true })));
  await expect(scripts(page)).toHaveCount(0);
});
