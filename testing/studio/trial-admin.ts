/** Steps through Decap's admin in a browser page, as an editor takes them (the studio's tests and screenshots). */
import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import type { DemoUser } from "../demo/idp.ts";

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
  // The studio answers its git API one call at a time, so this change can wait behind another's preview
  // build; on a loaded machine that outlasted Playwright's default 30 s.
  await page.getByRole("button", { name: `Status: ${status}` }).waitFor({ timeout: 120_000 });
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

/**
 * The picture of a review a reader sees (the README's): the first changed page's heading at the top of
 * the window, its frames drawn below it. A window's capture, never a full-page one, which leaves frames
 * blank; and taken again until every frame in the window shows a page (a frame scrolled into view is
 * painted a few frames later: Chromium throttles the rendering of cross-origin frames off screen).
 */
export async function reviewShot(page: Page, path?: string): Promise<Buffer> {
  const frames = await page.locator("iframe").all();
  for (const frame of frames) await frame.contentFrame().locator("mark").first().waitFor();
  await page
    .locator("[data-page] h2")
    .first()
    .evaluate((heading) => heading.scrollIntoView());
  const { height } = page.viewportSize()!;
  for (let attempt = 0; ; attempt++) {
    const shot = await page.screenshot();
    const drawn = await Promise.all(frames.map(async (frame) => framePainted(shot, await frame.boundingBox(), height)));
    if (drawn.every(Boolean)) {
      if (path) writeFileSync(path, shot);
      return shot;
    }
    if (attempt === 50) throw new Error("The review's frames were not drawn after 50 captures of the window.");
  }
}

/**
 * Whether a window's capture shows a page in a frame's box: a frame not yet painted is blank (white),
 * while every built page has dark parts (the header, the hero, the footer) and marks. Counts the dark
 * pixels inside the box, its edges left out. A frame out of the window counts as painted.
 */
export async function framePainted(shot: Buffer, box: { x: number; y: number; width: number; height: number } | null, height: number) {
  if (!box || box.y >= height || box.y + box.height <= 0) return true;
  const [top, bottom] = [Math.max(0, box.y) + 4, Math.min(height, box.y + box.height) - 4];
  const area = { left: Math.round(box.x) + 4, top: Math.round(top), width: Math.round(box.width) - 8, height: Math.round(bottom - top) };
  if (area.width <= 0 || area.height <= 0) return true;
  const { data, info } = await sharp(shot).extract(area).greyscale().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! < 128) dark++;
  return dark / (info.width * info.height) > 0.03;
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
  // The answer may be the review still preparing the approval commit's pages, which reloads itself every
  // 2 s until they are built: wait for the review itself, so that the next navigation is not raced by a reload.
  await reviewReady(page);
}

/** Answers the demo IdP's sign-in form as a person would. */
export async function answerSignIn(page: Page, user: Pick<DemoUser, "email" | "password">) {
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  // Back at the studio, a review's first drawing may wait for the preview builds: longer than a click's default wait.
  await page.getByRole("button", { name: "Sign in" }).click({ timeout: 120_000 });
}
