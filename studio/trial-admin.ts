/** Steps through Decap's admin in a browser page, as an editor takes them (the studio's tests and screenshots). */
import type { Page } from "@playwright/test";
import type { DemoUser } from "./demo/idp.ts";

/** Opens an admin route (`/collections/landing/entries/hero`), through Decap's login screen when a new browser meets it. */
export async function openAdmin(page: Page, origin: string, route: string, ready = page.getByText(/Writing in /)) {
  // A new visit each time, as a person opening the studio (the same URL with a hash would not reload the page).
  if (page.url().startsWith(`${origin}/admin/`)) await page.goto("about:blank");
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

/** Opens an entry's review (`landing/hero`); the first opening waits for the preview builds of the branch and of main. */
export async function openReview(page: Page, origin: string, entry: string) {
  await page.goto(`${origin}/admin/review/${entry}`);
  await reviewReady(page);
}

/** A studio page drawn in full: a review refreshes itself while the builds it shows are made. */
export const reviewReady = (page: Page) => page.locator("main[data-ready]").waitFor({ timeout: 300_000 });

/** On the review of the loopback studio: approves the entry's pages with a typed name, and waits for the studio's answer. */
export async function approveEntry(page: Page, principal: { name: string; registration: string }, pages = 1) {
  await page.getByLabel("Principal's name").fill(principal.name);
  await page.getByLabel("Registration").fill(principal.registration);
  // The answer waits for the preview build of the approval commit: longer than a click's default wait on a busy machine.
  await page.getByRole("button", { name: `Approve ${pages} page${pages === 1 ? "" : "s"}` }).click({ timeout: 300_000 });
  await page.getByRole("status").getByText(`as ${principal.name}: it is Ready`, { exact: false }).waitFor({ timeout: 120_000 });
}

/** Answers the demo IdP's sign-in form as a person would. */
export async function answerSignIn(page: Page, user: Pick<DemoUser, "email" | "password">) {
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  // Back at the studio, a review's first drawing may wait for the preview builds: longer than a click's default wait.
  await page.getByRole("button", { name: "Sign in" }).click({ timeout: 120_000 });
}
