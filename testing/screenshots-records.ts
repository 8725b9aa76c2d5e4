/**
 * `npm run screenshots:records`: the records in the team studio for the README (docs/screenshots/
 * records-*.png), on the records demo's store (testing/demo/records.ts) with the compliance officer
 * signed in: the timeline, the site as of a moment with its PDF and replay, and a comparison, at
 * 1440 px and 375 px. Viewport shots, scrolled to the part shown: a full-page picture draws frames blank.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { projectRoot } from "../lib/root.ts";
import { buildRecordsDemo, DRIFT } from "./demo/records.ts";
import { formProviderFetch } from "./form-provider.ts";
import { startTeamStudio } from "./demo/team.ts";
import { startDemoTsa } from "./demo/tsa.ts";
import { throwawayProject } from "./studio/trial.ts";
import { answerSignIn } from "./studio/trial-admin.ts";

const out = (name: string) => join(projectRoot, "docs/screenshots", `records-${name}.png`);
const scratch = mkdtempSync(join(tmpdir(), "records-shots-"));
const tsa = await startDemoTsa();
const demo = await buildRecordsDemo({
  project: projectRoot,
  dist: join(projectRoot, "dist"),
  folder: scratch,
  tsa,
  thirdParty: formProviderFetch,
});
process.env.ARCHIVE_STORE = demo.store;
process.env.ARCHIVE_TSA_CA = tsa.caFile;
const { project, remove } = throwawayProject();
const team = await startTeamStudio({ project, folder: join(project, "..", "team") });
const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });

/** Every frame on the page drawn (the PDF viewer and the replay load on their own). */
async function framesDrawn(page: Page) {
  for (const frame of await page.locator("iframe").all()) {
    await frame.scrollIntoViewIfNeeded();
    const inside = frame.contentFrame();
    if ((await frame.getAttribute("title"))?.endsWith("(PDF)")) await inside.locator("embed, body").first().waitFor();
    else await inside.locator("h1").first().waitFor();
  }
}

try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${team.url}/admin/records`);
  await answerSignIn(
    page,
    team.idp.users.find((u) => u.email === "casey.compliance@example.com")!,
  );
  await page.waitForURL(`${team.url}/admin/records`);
  for (const width of [1440, 375]) {
    const suffix = width === 1440 ? "" : "-phone";
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 812 });
    await page.goto(`${team.url}/admin/records`);
    await page.locator("#timeline").scrollIntoViewIfNeeded();
    await page.screenshot({ path: out(`timeline${suffix}`) });
    await page.goto(`${team.url}/admin/records?at=2026-03-14T12:00&page=${encodeURIComponent(DRIFT.page)}`);
    await framesDrawn(page);
    await page.locator("#page-heading").evaluate((heading) => heading.scrollIntoView());
    await page.screenshot({ path: out(`as-of${suffix}`) });
    await page.goto(`${team.url}/admin/records/capture/${demo.names.tampered}`);
    await page.locator("#verification").evaluate((heading) => heading.scrollIntoView());
    await page.screenshot({ path: out(`altered${suffix}`) });
    // A real capture, stored with its WACZ: the verification's "WACZ" line, signed and timestamped as it was made.
    await page.goto(`${team.url}/admin/records/capture/${demo.names.deployed}`);
    await page.locator("#verification").evaluate((heading) => heading.scrollIntoView());
    await page.screenshot({ path: out(`sealed${suffix}`) });
    await page.goto(`${team.url}/admin/records/export`);
    await page.screenshot({ path: out(`export${suffix}`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${team.url}/admin/records/compare?a=${demo.names.deployed}&b=${demo.names.drifted}`);
  await framesDrawn(page);
  await page.locator(`section[data-page="${DRIFT.page}"]`).evaluate((section) => section.scrollIntoView());
  await page.screenshot({ path: out("compare") });
  console.log(`records screenshots in docs/screenshots/records-*.png`);
} finally {
  await browser.close();
  await team.stop();
  await tsa.stop();
  remove();
  rmSync(scratch, { recursive: true, force: true });
}
