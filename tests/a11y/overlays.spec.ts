import { expect, test } from "../support/test.ts";
import { site } from "../../src/config/site.ts";
import { POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";
import { clockAt, openPage } from "../support/site.ts";

test("the popup neither steals nor traps focus, and Escape closes it", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden" });
  await page.keyboard.press("Tab"); // skip link
  await page.keyboard.press("Tab"); // brand link
  await page.keyboard.press("Tab"); // About
  const about = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" });
  await expect(about).toBeFocused();

  await clockAt(page, POPUP_SHOW_AT_MS);
  const dialog = page.getByRole("dialog", { name: "Under Development" });
  await expect(dialog).toBeVisible();
  await expect(about).toBeFocused();

  // Not a trap: Tab goes on through the page, not into the dialog.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Features" })).toBeFocused();

  await page.keyboard.press("Escape");
  await page.clock.runFor(POPUP_REMOVE_AFTER_MS);
  await expect(dialog).toHaveCount(0);
  await expect(page.locator("body")).not.toHaveClass(/popup-active/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Features" })).toBeFocused();
});

test("the popup's close button is reachable and works from the keyboard", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden" });
  await clockAt(page, POPUP_SHOW_AT_MS);
  const dialog = page.getByRole("dialog", { name: "Under Development" });
  await dialog.getByRole("button", { name: "Close" }).focus();
  await page.keyboard.press("Enter");
  await page.clock.runFor(POPUP_REMOVE_AFTER_MS);
  await expect(dialog).toHaveCount(0);
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
