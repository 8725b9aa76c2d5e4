import { expect, test, type Page } from "@playwright/test";
import { routeFormProvider } from "../support/form-provider";
import { hydrated, trackErrors, trackThirdParty } from "../support/site";

const banner = (page: Page) => page.getByRole("region", { name: "Cookie consent" });
const stored = (page: Page) => page.evaluate(() => localStorage.getItem("cookieConsent"));

test.beforeEach(async ({ context }) => {
  await routeFormProvider(context);
});

test("a first visit shows the banner with equal Accept All and Reject All, side by side", async ({ page }) => {
  await page.goto("/");
  await expect(banner(page)).toBeVisible();
  const accept = banner(page).getByRole("button", { name: "Accept All" });
  const reject = banner(page).getByRole("button", { name: "Reject All" });
  const [a, r] = [await accept.boundingBox(), await reject.boundingBox()];
  expect(Math.abs(a!.width - r!.width)).toBeLessThanOrEqual(1);
  expect(a!.height).toBe(r!.height);
  expect(a!.y).toBe(r!.y);
  const style = (l: typeof accept) =>
    l.evaluate((el) => [getComputedStyle(el).fontWeight, getComputedStyle(el).fontSize, getComputedStyle(el).backgroundColor].join());
  expect(await style(accept)).toBe(await style(reject));
});

for (const [button, value] of [
  ["Accept All", "accepted"],
  ["Reject All", "rejected"],
] as const) {
  test(`${button} stores ${value} and hides the banner on every page and across reloads`, async ({ page }) => {
    await page.goto("/");
    await hydrated(page, "ConsentBanner");
    await banner(page).getByRole("button", { name: button }).click();
    await expect(banner(page)).toBeHidden();
    expect(await stored(page)).toBe(value);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-consent", value);
    await expect(banner(page)).toBeHidden();
    await page.goto("/risk-disclosures");
    await expect(banner(page)).toBeHidden();
  });
}

test("the close icon hides the banner for this page view only and stores nothing", async ({ page }) => {
  await page.goto("/");
  await hydrated(page, "ConsentBanner");
  await banner(page).getByRole("button", { name: "Close" }).click();
  await expect(banner(page)).toBeHidden();
  expect(await stored(page)).toBeNull();
  await page.reload();
  await expect(banner(page)).toBeVisible();
});

test("a returning visitor's banner is decided before first paint (no flash)", async ({ page }) => {
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      const el = document.querySelector("[data-consent-banner]");
      (window as unknown as { bannerAtDcl: string }).bannerAtDcl = el ? getComputedStyle(el).display : "absent";
    });
  });
  await page.goto("/");
  expect(await page.evaluate(() => (window as unknown as { bannerAtDcl: string }).bannerAtDcl)).toBe("block");
  await page.evaluate(() => localStorage.setItem("cookieConsent", "accepted"));
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { bannerAtDcl: string }).bannerAtDcl)).toBe("none");
});

test("a corrupted stored value counts as no choice and is replaced by the next one", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("cookieConsent", '{"accepted":true}'));
  await page.reload();
  await hydrated(page, "ConsentBanner");
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole("button", { name: "Reject All" }).click();
  expect(await stored(page)).toBe("rejected");
});

test("storage that throws leaves the page working: the banner shows and its buttons hide it", async ({ page }) => {
  const errors = trackErrors(page);
  await page.addInitScript(() => {
    Object.defineProperty(window, "localStorage", {
      get() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    });
  });
  await page.goto("/");
  await hydrated(page, "ConsentBanner");
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole("button", { name: "Accept All" }).click();
  await expect(banner(page)).toBeHidden();
  await hydrated(page, "SiteHeader");
  await page.evaluate(() => window.scrollTo({ top: 400, behavior: "instant" }));
  await expect(page.locator("header")).toHaveAttribute("data-scrolled", "true");
  expect(errors).toEqual([]);
});

test("Cookie settings in the footer reopens the banner to change the choice", async ({ page }) => {
  await page.goto("/privacy-policy");
  await hydrated(page, "ConsentBanner");
  await banner(page).getByRole("button", { name: "Accept All" }).click();
  await expect(banner(page)).toBeHidden();
  await page.getByRole("button", { name: "Cookie settings" }).click();
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole("button", { name: "Reject All" }).click();
  expect(await stored(page)).toBe("rejected");
  await expect(banner(page)).toBeHidden();
});

test("nothing third-party loads before a choice (at the top of the page)", async ({ page, baseURL }) => {
  const thirdParty = trackThirdParty(page, baseURL!);
  await page.goto("/", { waitUntil: "networkidle" });
  await hydrated(page, "ContactFormEmbed");
  await page.waitForTimeout(500);
  expect(thirdParty).toEqual([]);
});
