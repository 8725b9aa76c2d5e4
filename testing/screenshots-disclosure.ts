/**
 * `npm run screenshots:disclosure`: a new disclosure's review for the README
 * (docs/screenshots/studio-new-disclosure*.png), on a throw-away clone with the demo's IdP and git host:
 * the editor adds "Fee Schedule" from the Disclosures form and sends it to review; the principal's
 * review at 1440 px and at 375 px, each a window's capture scrolled to the new page's frames, and again
 * scrolled to its changed words (the page's own, the shared parts said in one sentence: decision 0044).
 */
import { chromium, type Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { projectRoot } from "../lib/root.ts";
import { startTeamStudio } from "./demo/team.ts";
import { STUDIO_WAIT_MS } from "./studio/browser.ts";
import { throwawayProject } from "./studio/trial.ts";
import { answerSignIn, framePainted, reviewReady, setStatus } from "./studio/trial-admin.ts";
import { fillNewDisclosure, save } from "./studio/trial-disclosure.ts";

const out = (name: string) => join(projectRoot, "docs/screenshots", `studio-${name}.png`);
const { project, remove } = throwawayProject();
const team = await startTeamStudio({ project, folder: join(project, "..", "team") });
const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
const person = (email: string) => team.idp.users.find((u) => u.email === email)!;

/** The new page's section at the top of the window, its frame drawn (a full-page capture leaves frames blank); then its changed words. */
async function shoot(page: Page, name: string) {
  for (const frame of await page.locator('[data-page="/fee-schedule"] iframe').all()) await frame.contentFrame().locator("h1").waitFor();
  await page.locator('[data-page="/fee-schedule"] h2').evaluate((heading) => heading.scrollIntoView());
  // Taken again until the frame shows the page: Chromium paints a frame scrolled into view a few frames later.
  const frames = await page.locator('[data-page="/fee-schedule"] iframe').all();
  for (let attempt = 0; ; attempt++) {
    const shot = await page.screenshot();
    const drawn = await Promise.all(
      frames.map(async (frame) => framePainted(shot, await frame.boundingBox(), page.viewportSize()!.height)),
    );
    if (drawn.every(Boolean)) {
      writeFileSync(out(name), shot);
      break;
    }
    if (attempt === 50) throw new Error("The new page's frame was not drawn after 50 captures of the window.");
  }
  await page
    .locator('[data-page="/fee-schedule"] h3')
    .filter({ hasText: "The changed words" })
    .evaluate((heading) => heading.scrollIntoView());
  await page.screenshot({ path: out(`${name}-words`) });
}

try {
  const erin = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  erin.setDefaultTimeout(STUDIO_WAIT_MS);
  await erin.goto(`${team.url}/admin/`);
  await answerSignIn(erin, person("erin.editor@example.com"));
  await erin.waitForURL(`${team.url}/admin/`);
  await fillNewDisclosure(erin, team.url, {
    title: "Fee Schedule",
    order: 2,
    description: "The fees our broker-dealer charges ATS subscribers for order entry, execution and settlement, and when they are billed.",
    lastUpdated: "2026-11-20",
    body: "## Fees for ATS Subscribers\n\nEach executed order is charged a fee per share, billed monthly.\n\n## Changes to Fees\n\nWe give subscribers thirty days' notice of any change.",
  });
  const saved = await save(erin);
  if (!saved.saved) throw new Error(saved.refusal);
  await setStatus(erin, "In review");
  const pat = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  pat.setDefaultTimeout(STUDIO_WAIT_MS);
  await pat.goto(`${team.url}/admin/review/disclosures/fee-schedule`);
  await answerSignIn(pat, person("pat.example@example.com"));
  await reviewReady(pat);
  await shoot(pat, "new-disclosure");
  await pat.setViewportSize({ width: 375, height: 812 });
  await pat.goto(`${team.url}/admin/review/disclosures/fee-schedule?view=phone`);
  await reviewReady(pat);
  await shoot(pat, "new-disclosure-phone");
  console.log(
    `disclosure screenshots: ${["new-disclosure", "new-disclosure-words", "new-disclosure-phone", "new-disclosure-phone-words"].map(out).join(", ")}`,
  );
} finally {
  await browser.close();
  await team.stop();
  remove();
}
