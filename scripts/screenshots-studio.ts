/**
 * `npm run screenshots:studio`: the content studio at 1440 px for the README, on a throw-away clone:
 * the collection list, an entry with its preview, and the approvals view with a diff
 * (docs/screenshots/studio-*.png). The hero headline is edited and set In review on the way.
 */
import { chromium } from "@playwright/test";
import { join } from "node:path";
import { chromeArgs, findChrome } from "./lib/chrome.ts";
import { projectRoot } from "./lib/root.ts";
import { studioOnThrowawayClone } from "../studio/trial.ts";
import { openAdmin, setStatus } from "../studio/trial-admin.ts";

const out = (name: string) => join(projectRoot, "docs/screenshots", `studio-${name}.png`);
const trial = await studioOnThrowawayClone();
const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await openAdmin(page, trial.origin, "/collections/landing", page.getByRole("link", { name: /Hero/ }));
  await page.screenshot({ path: out("collections") });
  await openAdmin(page, trial.origin, "/collections/landing/entries/hero");
  const headline = "The trusted leader in institutional digital-asset trading";
  await page.getByLabel("Headline", { exact: true }).fill(headline);
  // The preview pane has drawn the edit with the site's own hero.
  await page.frameLocator("#preview-pane").locator('[data-studio-preview="ready"] #introduction-title').getByText(headline).waitFor();
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Status: Draft").first().waitFor();
  await setStatus(page, "In review");
  await page.screenshot({ path: out("entry") });
  await page.goto(`${trial.origin}/admin/approvals`, { timeout: 300_000 });
  await page.locator('section[data-entry="cms/landing/hero"] [data-page="/"] ins').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: out("approvals") });
  console.log(`studio screenshots: ${["collections", "entry", "approvals"].map(out).join(", ")}`);
} finally {
  await browser.close();
  await trial.stop();
}
