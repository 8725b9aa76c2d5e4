/**
 * `npm run screenshots:studio`: the team studio for the README (docs/screenshots/studio-*.png), on a
 * throw-away clone with the demo's IdP and git host: the sign-in, an editor's entry with the
 * principal's comment (at 1440 px, and at 375 px, where the form takes the window's width above the
 * studio's dock), and the principal's review of it at 1440 px and at 375 px, each a window's capture
 * with the page frames drawn; then the board's "Reviews due" and a page's review (issue 54) at 1440 and 375 px;
 * then "Publish at" on the review and the board with the entry scheduled (issue 56), at 1440 and 375 px.
 */
import { chromium } from "@playwright/test";
import { join } from "node:path";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { projectRoot } from "../lib/root.ts";
import { startTeamStudio } from "./demo/team.ts";
import { STUDIO_WAIT_MS } from "./studio/browser.ts";
import { throwawayProject } from "./studio/trial.ts";
import { localValue } from "../lib/zoned-time.ts";
import { answerSignIn, openAdmin, reviewReady, reviewShot, setStatus } from "./studio/trial-admin.ts";

const out = (name: string) => join(projectRoot, "docs/screenshots", `studio-${name}.png`);
const { project, remove } = throwawayProject();
const team = await startTeamStudio({ project, folder: join(project, "..", "team") });
const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
const person = (email: string) => team.idp.users.find((u) => u.email === email)!;
try {
  const erin = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  erin.setDefaultTimeout(STUDIO_WAIT_MS);
  await erin.goto(`${team.url}/admin/`);
  await erin.getByLabel("E-mail").fill(person("erin.editor@example.com").email);
  await erin.screenshot({ path: out("signin") });
  await answerSignIn(erin, person("erin.editor@example.com"));
  await openAdmin(erin, team.url, "/collections/landing/entries/hero");
  await erin.getByLabel("Headline", { exact: true }).fill("The trusted leader in institutional digital-asset trading");
  await erin.getByRole("button", { name: "Save" }).click();
  await erin.getByText("Changes saved").waitFor();
  await setStatus(erin, "In review");
  const pat = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  pat.setDefaultTimeout(STUDIO_WAIT_MS);
  await pat.goto(`${team.url}/admin/review/landing/hero`);
  await answerSignIn(pat, person("pat.example@example.com"));
  await reviewReady(pat);
  await pat.getByLabel(/^Comment for the editor/).fill("Please say who we serve: “for institutions” after “trading”.");
  await pat.getByRole("button", { name: "Request changes" }).click();
  await reviewReady(pat);
  await openAdmin(erin, team.url, "/collections/landing/entries/hero");
  await erin.locator('[data-studio-notice="entry-state"]').waitFor();
  await erin.frameLocator("#preview-pane").locator('[data-studio-preview="ready"]').waitFor({ timeout: 120_000 });
  await erin.screenshot({ path: out("entry") });
  // The same entry on a phone: the toolbar wrapped above the form, Save in reach, the notice in the dock.
  await erin.setViewportSize({ width: 375, height: 812 });
  await openAdmin(erin, team.url, "/collections/landing/entries/hero");
  await erin.locator('[data-studio-notice="entry-state"]').waitFor();
  await erin.getByLabel("Headline", { exact: true }).waitFor();
  await erin.screenshot({ path: out("entry-phone") });
  await erin.setViewportSize({ width: 1440, height: 900 });
  await erin.getByLabel("Headline", { exact: true }).fill("The trusted leader in institutional digital-asset trading for institutions");
  await erin.getByRole("button", { name: "Save" }).click();
  await erin.getByText("Changes saved").waitFor();
  await setStatus(erin, "In review");
  await pat.goto(`${team.url}/admin/review/landing/hero`);
  await reviewReady(pat);
  // A window's capture at the first changed page, its frames drawn (a full-page capture leaves frames blank).
  await reviewShot(pat, out("review"));
  await pat.setViewportSize({ width: 375, height: 812 });
  await pat.goto(`${team.url}/admin/review/landing/hero?view=phone`);
  await reviewReady(pat);
  await reviewShot(pat, out("review-phone"));
  // The board's "Reviews due" and a page's review (issue 54), the principal signed in afresh to record it.
  for (const [width, suffix] of [
    [1440, ""],
    [375, "-phone"],
  ] as const) {
    await pat.setViewportSize({ width, height: width < 600 ? 812 : 900 });
    await pat.goto(`${team.url}/admin/approvals`);
    await pat.locator("[data-reviews-due]").waitFor();
    await pat.screenshot({ path: out(`reviews-due${suffix}`), fullPage: true });
    await pat.goto(`${team.url}/admin/pages/review?page=%2Frisk-disclosures`);
    const confirm = pat.getByRole("link", { name: "Confirm it's you to record a review" });
    if (await confirm.count()) {
      await confirm.click();
      await answerSignIn(pat, person("pat.example@example.com"));
    }
    await pat.getByRole("button", { name: "Reviewed, no change" }).waitFor();
    await pat.frameLocator("iframe").locator("h1").waitFor();
    await pat.screenshot({ path: out(`page-review${suffix}`) });
  }
  // "Publish at" on the principal's review, then the board with the entry scheduled (issue 56).
  const moment = localValue(new Date(Date.now() + 2 * 86_400_000), "America/New_York").replace(/T.*/, "T09:30");
  for (const [width, suffix] of [
    [1440, ""],
    [375, "-phone"],
  ] as const) {
    await pat.setViewportSize({ width, height: width < 600 ? 812 : 900 });
    await pat.goto(`${team.url}/admin/review/landing/hero`);
    await reviewReady(pat);
    const field = pat.getByLabel("Date and time in America/New_York");
    await field.fill(moment);
    await pat.locator("fieldset.publish-at").scrollIntoViewIfNeeded();
    await pat.screenshot({ path: out(`schedule-review${suffix}`) });
  }
  await pat.setViewportSize({ width: 1440, height: 900 });
  await pat.getByRole("button", { name: /^Approve/ }).click();
  await pat.locator("[data-scheduled]").waitFor();
  for (const [width, suffix] of [
    [1440, ""],
    [375, "-phone"],
  ] as const) {
    await pat.setViewportSize({ width, height: width < 600 ? 812 : 900 });
    await pat.goto(`${team.url}/admin/approvals`);
    await pat.locator("p.schedule").scrollIntoViewIfNeeded();
    await pat.screenshot({ path: out(`schedule-board${suffix}`), fullPage: true });
  }
  const shots = [
    "signin",
    "entry",
    "entry-phone",
    "review",
    "review-phone",
    "reviews-due",
    "reviews-due-phone",
    "page-review",
    "page-review-phone",
    "schedule-review",
    "schedule-review-phone",
    "schedule-board",
    "schedule-board-phone",
  ];
  console.log(`studio screenshots: ${shots.map(out).join(", ")}`);
} finally {
  await browser.close();
  await team.stop();
  remove();
}
