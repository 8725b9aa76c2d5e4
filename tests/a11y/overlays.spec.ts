import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { site } from "../../src/config/site.ts";
import { POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";
import { clockAt, openPage } from "../support/site.ts";

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Under Development" });

/** Counts focus moves into the popup from now on: it is announced by taking focus, once. */
async function countFocusIntoPopup(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { popupFocus: number };
    w.popupFocus = 0;
    document.addEventListener("focusin", (event) => {
      const into = (event.target as Element).closest("[data-popup-phase]");
      const from = event.relatedTarget instanceof Element ? event.relatedTarget.closest("[data-popup-phase]") : null;
      if (into && !from) w.popupFocus++;
    });
  });
  return () => page.evaluate(() => (window as unknown as { popupFocus: number }).popupFocus);
}

test("the popup is a modal dialog: it takes focus once, keeps Tab inside, and Escape gives focus back exactly where it was", async ({
  page,
}) => {
  await openPage(page, "/", { banner: "hidden" });
  await page.keyboard.press("Tab"); // skip link
  await page.keyboard.press("Tab"); // brand link
  await page.keyboard.press("Tab"); // About
  // Found even while the popup hides the page from assistive technology, which is what is checked below.
  const about = page
    .getByRole("navigation", { name: "Main", includeHidden: true })
    .getByRole("link", { name: "About", includeHidden: true });
  await expect(about).toBeFocused();
  const focusMoves = await countFocusIntoPopup(page);

  await clockAt(page, POPUP_SHOW_AT_MS);
  await expect(dialog(page)).toBeVisible();
  const close = dialog(page).getByRole("button", { name: "Close" });
  // Announced once, by taking focus: its name and description are read as focus enters it.
  await expect(close).toBeFocused();
  await expect(dialog(page)).toHaveAccessibleName("Under Development");
  await expect(dialog(page)).toHaveAccessibleDescription(/still building the platform/);
  // The page behind is out of reach: hidden from assistive technology, under the overlay, and out of the tab order.
  expect(await about.evaluate((el) => el.closest("[aria-hidden=true]") !== null)).toBe(true);
  const box = (await about.boundingBox())!;
  expect(
    await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest("[data-popup-phase]") !== null, [box.x + 2, box.y + 2]),
  ).toBe(true);
  for (const key of ["Tab", "Shift+Tab", "Tab"]) {
    await page.keyboard.press(key);
    await expect(close).toBeFocused();
  }
  expect(await focusMoves()).toBe(1);

  await page.keyboard.press("Escape");
  await expect(about).toBeFocused();
  await page.clock.runFor(POPUP_REMOVE_AFTER_MS);
  await expect(dialog(page)).toHaveCount(0);
  await expect(page.locator("body")).not.toHaveClass(/popup-active/);
  expect(await page.locator("[aria-hidden=true]:not(svg, [data-popup-phase] *)").count()).toBe(0);
  await page.keyboard.press("Tab");
  await expect(nav(page).getByRole("link", { name: "Features" })).toBeFocused();
});

test("when it goes by itself at 12 s, focus goes back to where it was", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden" });
  const explore = page.getByRole("link", { name: "Explore Our Platform" });
  await explore.focus();
  await clockAt(page, POPUP_SHOW_AT_MS);
  await expect(dialog(page).getByRole("button", { name: "Close" })).toBeFocused();
  await clockAt(page, POPUP_HIDE_AT_MS);
  await expect(explore).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Partner With Us" })).toBeFocused();
});

test("with nothing focused before, the next Tab after it closes starts at the top of the page", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden" });
  await clockAt(page, POPUP_SHOW_AT_MS);
  await dialog(page).getByRole("button", { name: "Close" }).click();
  await page.clock.runFor(POPUP_REMOVE_AFTER_MS);
  await expect(dialog(page)).toHaveCount(0);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
});

test("on a first visit, focus in the cookie banner goes back to the banner's button it was on", async ({ page }) => {
  await openPage(page, "/", { banner: "shown" });
  const reject = page.getByRole("region", { name: "Cookie consent" }).getByRole("button", { name: "Reject All" });
  await reject.focus();
  await clockAt(page, POPUP_SHOW_AT_MS);
  await expect(dialog(page).getByRole("button", { name: "Close" })).toBeFocused();
  // The banner is behind the overlay: a click there closes the popup, it does not answer the banner.
  await page.mouse.click(5, 300);
  await expect(reject).toBeFocused();
  expect(await page.evaluate(() => localStorage.getItem("cookieConsent"))).toBeNull();
});

test("the contact form fallback is announced through the role=status region that was there before", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden", form: "abort" });
  const status = page.locator("#contact").getByRole("status");
  await expect(status).toHaveCount(1);
  await expect(status).not.toContainText("could not be loaded");
  await status.evaluate((el) => el.setAttribute("data-test-original", ""));
  await page.evaluate(() => document.getElementById("contact")!.scrollIntoView());
  await expect(page.locator("[data-form-state]")).toHaveAttribute("data-form-state", "failed");
  // The same live region (not a new one inserted with its message) now holds the fallback and the e-mail.
  await expect(status).toHaveAttribute("data-test-original", "");
  await expect(status).toContainText("The contact form could not be loaded.");
  await expect(status.getByRole("link", { name: site.businessEmail })).toHaveAttribute("href", `mailto:${site.businessEmail}`);
});
