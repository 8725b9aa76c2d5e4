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

/** In the approvals view: approves an entry's pages as a principal, and waits for the studio's answer. */
export async function approveEntry(page: Page, branch: string, principal: { name: string; registration: string }, pages = 1) {
  const entry = page.locator(`section[data-entry="${branch}"]`);
  await entry.getByLabel("Principal's name").fill(principal.name);
  await entry.getByLabel("Registration").fill(principal.registration);
  // The answer waits for the preview build of the approval commit: longer than a click's default wait on a busy machine.
  await entry.getByRole("button", { name: `Approve ${pages} page${pages === 1 ? "" : "s"}` }).click({ timeout: 300_000 });
  await page.getByRole("status").getByText(`Approved: recorded on ${branch}`, { exact: false }).waitFor({ timeout: 120_000 });
}
