/** Steps through Decap's admin in a browser page, as an editor takes them (the studio's tests and screenshots). */
import type { Page } from "@playwright/test";

/** Opens an admin route (`/collections/landing/entries/hero`), through Decap's login screen when a new browser meets it. */
export async function openAdmin(page: Page, origin: string, route: string, ready = page.getByText(/Writing in /)) {
  await page.goto(`${origin}/admin/#${route}`);
  const login = page.getByRole("button", { name: "Login" });
  await login.or(ready).first().waitFor();
  if (await login.isVisible()) await login.click();
  await ready.first().waitFor();
}

export async function setStatus(page: Page, status: "In review" | "Ready") {
  await page.getByRole("button", { name: /^Status: / }).click();
  await page.getByRole("menuitem", { name: status }).click();
  await page.getByRole("button", { name: `Status: ${status}` }).waitFor();
}

export async function publishNow(page: Page) {
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("menuitem", { name: "Publish now" }).click();
}
