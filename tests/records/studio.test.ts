/**
 * The records in the team studio, through its real pages in Chromium, for the three roles: the
 * compliance officer (Casey) and a principal (Pat) read them, an editor (Erin) is refused. The store is
 * a copy of the records demo's (made once per run: tests/records/fixtures.ts): two real captures
 * timestamped by a TSA on loopback, one of them of a drifted copy of the site, and derived days in March
 * 2026 with one PDF altered after it was stored and one capture that never finished.
 */
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { verifyExport } from "../../lib/records/export.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { DRIFT, type RecordsDemo } from "../../testing/demo/records.ts";
import { storeCopy, type RecordsFixture } from "./fixtures.ts";
import { signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";

let scratch: string;
let fixture: RecordsFixture;
let demo: RecordsDemo;
let team: Team;
let casey: { context: BrowserContext; page: Page };

beforeAll(async () => {
  fixture = inject("records");
  scratch = mkdtempSync(join(tmpdir(), "records-studio-"));
  // A copy: a test below removes a file from the store.
  demo = { ...fixture, store: storeCopy(fixture, scratch) };
  // The studio runs in this process and opens its records from the environment, as in production.
  process.env.ARCHIVE_STORE = demo.store;
  process.env.ARCHIVE_TSA_CA = fixture.tsaCaFile;
  team = await startTeam();
  casey = await signIn(team, "casey.compliance@example.com", "/admin/records");
}, 240_000);
afterAll(async () => {
  await team?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 60_000);

const item = (page: Page, name: string) => page.locator(`[data-capture="${name}"]`);

describe("the records, for compliance", () => {
  it("the timeline lists every capture with its time, kind and state, and says which need attention", async () => {
    const { page } = casey;
    await expectPage(page.getByRole("heading", { level: 1, name: "Records" })).toBeVisible();
    await expectPage(page.locator("#studio-bar, header")).toContainText("Casey Compliance");
    await expectPage(page.locator("ol.timeline > li")).toHaveCount(demo.names.derived.length + 2);
    // The real captures: time certified by the TSA; the drifted one names the page as people say it.
    await expectPage(item(page, demo.names.deployed)).toContainText("time certified by the Time Stamp Authority");
    await expectPage(item(page, demo.names.deployed).locator('[data-state="intact"]')).toBeVisible();
    await expectPage(item(page, demo.names.drifted).locator('[data-state="drift"]')).toContainText("Privacy Policy");
    // Derived March days: the machine's clock, written out in UTC.
    await expectPage(item(page, "20260314T061700Z")).toContainText("14 March 2026, 06:17:00 UTC");
    await expectPage(item(page, "20260314T061700Z")).toContainText("machine's clock");
    await expectPage(item(page, "20260314T061700Z")).toContainText("Daily capture of the live site");
    await expectPage(item(page, "20260301T140500Z")).toContainText("Captured as it was deployed");
    // The altered PDF is named; the unfinished capture says what it lacks.
    await expectPage(item(page, demo.names.tampered).locator('[data-state="altered"]')).toContainText(`${demo.tamperedFile}: altered`);
    await expectPage(item(page, demo.names.incomplete).locator('[data-state="incomplete"]')).toContainText("manifest.json: missing");
    const attention = page.getByRole("region", { name: /need attention/ });
    for (const name of [demo.names.tampered, demo.names.incomplete, demo.names.drifted, demo.names.derivedDrift])
      await expectPage(attention.locator(`a[href="/admin/records/capture/${name}"]`)).toHaveCount(1);
    // No bucket keys or hashes unless asked.
    await expectPage(page.locator("main")).not.toContainText(/[0-9a-f]{40}/);
  });

  it("as of a moment, opens the capture in force then and names the next; before the first, says so", async () => {
    const { page } = casey;
    await page.getByLabel("Date and time, in UTC").fill("2026-03-14T12:00");
    await page.getByRole("button", { name: "Show the site then" }).click();
    const banner = page.locator("[data-as-of]");
    await expectPage(banner).toContainText("As of 14 March 2026, 12:00:00 UTC, the site was as captured on 14 March 2026, 06:17:00 UTC.");
    await expectPage(banner).toContainText("The next capture is from 14 March 2026, 15:40:00 UTC.");
    await page.goto(`${team.url}/admin/records?at=2026-02-01T00:00`);
    await expectPage(page.locator("[data-as-of]")).toContainText(
      "The store has no capture on or before 1 February 2026, 00:00:00 UTC: the first capture is from 1 March 2026, 14:05:00 UTC.",
    );
    await page.goto(`${team.url}/admin/records?at=not-a-date`);
    await expectPage(page.getByRole("alert")).toContainText('"not-a-date" is not a date and time');
  });

  it("a capture shows its verification line by line, its PDF and its replay, nothing fetched from outside the capture", async () => {
    const { page } = casey;
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(`${team.url}/admin/records/capture/${demo.names.deployed}`);
    const checks = page.locator("ul.checks > li");
    await expectPage(checks.filter({ hasText: "Files:" })).toContainText("✓");
    await expectPage(checks.filter({ hasText: "Trusted time:" })).toContainText("CN=Demo TSA");
    await expectPage(checks.filter({ hasText: "Write-once storage:" })).toContainText("✗");
    const pdf = await page.request.get(
      await page
        .locator('iframe[title$="(PDF)"]')
        .getAttribute("src")
        .then((src) => `${team.url}${src}`),
    );
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    const replay = page.frameLocator('iframe[title$="replayed as served"]');
    await expectPage(replay.getByRole("heading", { level: 1 })).toContainText("trusted leader");
    // The replay's links stay inside the capture.
    await page.getByRole("link", { name: "Privacy Policy" }).first().click();
    await expectPage(page.locator("#page-heading")).toHaveText("Privacy Policy");
    await expectPage(page.frameLocator('iframe[title$="replayed as served"]').getByRole("heading", { level: 1 })).toHaveText(
      "Privacy Policy",
    );
    // Chromium's own PDF viewer loads chrome:// resources; every request that reaches a network stays on the studio.
    const outside = requests.filter((url) => /^(https?|wss?):/.test(url) && !url.startsWith(`${team.url}/`));
    expect(outside).toEqual([]);
    const replayed = requests.filter((url) => url.includes("/replay/"));
    expect(replayed.length).toBeGreaterThan(1);
    expect(replayed.every((url) => url.startsWith(`${team.url}/admin/records/capture/${demo.names.deployed}/replay/`))).toBe(true);
  });

  it("the altered capture's page names the altered file; the drifted one shows the words as they were served", async () => {
    const { page } = casey;
    await page.goto(`${team.url}/admin/records/capture/${demo.names.tampered}?page=${encodeURIComponent(DRIFT.page)}`);
    await expectPage(page.locator("ul.checks > li").filter({ hasText: "Files:" })).toContainText(`✗ Files: ${demo.tamperedFile}: altered`);
    await page.goto(`${team.url}/admin/records/capture/${demo.names.drifted}?page=${encodeURIComponent(DRIFT.page)}`);
    await expectPage(page.locator('[data-state="drift"]')).toContainText("Privacy Policy");
    await expectPage(page.frameLocator('iframe[title$="replayed as served"]').getByRole("heading", { level: 1 })).toHaveText(DRIFT.to);
  });

  it("a file removed from the store after the first look shows at the next look, named; a capture can be checked again at once", async () => {
    const { page } = casey;
    const name = "20260305T061700Z";
    await page.goto(`${team.url}/admin/records`);
    await expectPage(item(page, name).locator('[data-state="intact"]')).toBeVisible();
    unlinkSync(join(demo.store, name, "pdf", "cookie-policy.pdf"));
    await page.reload();
    await expectPage(item(page, name).locator('[data-state="altered"]')).toContainText(
      "pdf/cookie-policy.pdf: missing (listed in manifest.json)",
    );
    await page.goto(`${team.url}/admin/records/capture/${name}`);
    await page.getByRole("link", { name: "Check every file again now" }).click();
    await expectPage(page.locator("ul.checks > li").filter({ hasText: "Files:" })).toContainText("pdf/cookie-policy.pdf: missing");
  });

  it("compares two captures: the changed words, and both renderings side by side", async () => {
    const { page } = casey;
    await page.goto(`${team.url}/admin/records/compare?a=${demo.names.deployed}&b=${demo.names.drifted}`);
    const section = page.locator(`section[data-page="${DRIFT.page}"]`);
    await expectPage(section.locator(".diff ins")).toContainText("revised");
    await expectPage(section.locator("iframe")).toHaveCount(2);
    await expectPage(section.frameLocator("iframe").nth(1).locator("mark.studio-added")).toContainText("revised");
    await expectPage(page.locator("main")).toContainText("Unchanged: Landing page");
  });

  it("exports a range for an examiner: one zip that records:verify accepts, recorded in the review log", async () => {
    const { page } = casey;
    await page.goto(`${team.url}/admin/records/export`);
    await page.getByLabel("First day").fill("2026-03-13");
    await page.getByLabel("Last day").fill("2026-03-14");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Make the export" }).click()]);
    const zip = join(scratch, "export.zip");
    await download.saveAs(zip);
    const checked = await verifyExport(zip, { tsaCa: readFileSync(fixture.tsaCaFile, "utf8") });
    expect(checked.problems).toEqual([]);
    const logged = readEvents(team.studio.repo).filter((e) => e.event === "exported");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      actor: { name: "Casey Compliance", role: "compliance" },
      export: { selection: "2026-03-13 to 2026-03-14" },
    });
    // The capture in force at the start of the 13th (the 12th's never finished: the 11th's) through the 14th's two.
    expect(logged[0]!.export!.captures).toEqual(["20260311T061700Z", "20260313T061700Z", "20260314T061700Z", "20260314T154000Z"]);
  });

  it("an export of days before the first capture says so and makes nothing", async () => {
    const { page } = casey;
    await page.goto(`${team.url}/admin/records/export`);
    await page.getByLabel("Or a list of dates").fill("2026-02-01");
    await page.getByRole("button", { name: "Make the export" }).click();
    await expectPage(page.getByRole("alert")).toContainText("nothing to export");
    await expectPage(page.getByRole("status")).toContainText("the first capture is from 1 March 2026");
  });

  it("compliance cannot edit or publish through the git API", async () => {
    const response = await casey.context.request.post(`${team.url}/api/v1`, {
      data: { action: "persistEntry", params: { branch: "main" } },
      headers: { Origin: team.url, "Sec-Fetch-Site": "same-origin" },
    });
    expect(response.status()).toBe(403);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Compliance follows the studio's work/);
  });
});

describe("the records, for the other roles", () => {
  it("a principal reads them too", async () => {
    const { context, page } = await signIn(team, "pat.example@example.com", "/admin/records");
    await expectPage(page.locator("ol.timeline > li")).toHaveCount(demo.names.derived.length + 2);
    await context.close();
  });

  it("an editor is refused with one sentence, and is not offered the link", async () => {
    const { context, page } = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await expectPage(page.getByRole("link", { name: "Records" })).toHaveCount(0);
    const response = await page.goto(`${team.url}/admin/records`);
    expect(response?.status()).toBe(403);
    await expectPage(page.getByRole("alert")).toHaveText(/^The records are for compliance and principals/);
    for (const path of [
      `/admin/records/capture/${demo.names.deployed}`,
      "/admin/records/export",
      `/admin/records/capture/${demo.names.deployed}/replay/`,
    ])
      expect((await context.request.get(`${team.url}${path}`)).status(), path).toBe(403);
    await context.close();
  });
});
