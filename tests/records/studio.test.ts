/**
 * The records in the team studio, through its real pages in Chromium, for the three roles: the
 * compliance officer (Casey) and a principal (Pat) read them, an editor (Erin) is refused. The store is
 * a copy of the records demo's (made once per run: tests/records/fixtures.ts): two real captures
 * timestamped by a TSA on loopback, each with the contact form's provider recorded from its local
 * stand-in, one of them of a drifted copy of the site, and derived days in March 2026 with one PDF
 * altered after it was stored and one capture that never finished. The replay runs the pages' recorded
 * scripts with a pass in its address, and reaches nothing but the studio (decision 0047).
 */
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserContext, type Page, type Request } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { verifyExport } from "../../lib/records/export.ts";
import { verifyWacz } from "../../lib/records/wacz.ts";
import { MANIFEST, parseManifest } from "../../lib/records/manifest.ts";
import { setLogSink } from "../../studio/logging.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { DRIFT, type RecordsDemo } from "../../testing/demo/records.ts";
import { recordsFixture, storeCopy, type RecordsFixture } from "./fixtures.ts";
import { signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";

let scratch: string;
let fixture: RecordsFixture;
let demo: RecordsDemo;
let team: Team;
let casey: { context: BrowserContext; page: Page };

beforeAll(async () => {
  fixture = await recordsFixture();
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
});

const item = (page: Page, name: string) => page.locator(`[data-capture="${name}"]`);

/** 13 and 14 March 2026 exported from the Records' export page with `button`: its download. */
async function exportRange(page: Page, button: "Make the export" | "Download as WACZ") {
  await page.goto(`${team.url}/admin/records/export`);
  await page.getByLabel("First day").fill("2026-03-13");
  await page.getByLabel("Last day").fill("2026-03-14");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return download;
}

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
    // The days the legal pages were overdue for review (issue 54), as each capture's manifest recorded it.
    await expectPage(item(page, "20260314T061700Z").locator('[data-state="review-overdue"]')).toHaveText(
      "Overdue for review that day: Cookie Policy, Privacy Policy, Risk Disclosures, Terms of Service.",
    );
    // Derived March days: the machine's clock, written out in UTC.
    await expectPage(item(page, "20260314T061700Z")).toContainText("14 March 2026, 06:17:00 UTC");
    await expectPage(item(page, "20260314T061700Z")).toContainText("machine's clock");
    await expectPage(item(page, "20260314T061700Z")).toContainText("Daily capture of the live site");
    await expectPage(item(page, "20260301T140500Z")).toContainText("Captured as it was deployed");
    // The commit each capture's site was built from, short (its whole name waits under a capture's technical details).
    const { commit } = parseManifest(readFileSync(join(demo.store, demo.names.deployed, MANIFEST)));
    await expectPage(item(page, demo.names.deployed).locator("[data-commit]")).toHaveText(`Built from commit ${commit.slice(0, 12)}`);
    await expectPage(page.locator("ol.timeline > li:not(:has([data-commit]))")).toHaveCount(1);
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
    const download = await exportRange(casey.page, "Make the export");
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

  it("downloads the same range as a WACZ that the WACZ check accepts, recorded in the review log as one", async () => {
    const download = await exportRange(casey.page, "Download as WACZ");
    expect(download.suggestedFilename()).toBe("records-2026-03-13_to_2026-03-14.wacz");
    const wacz = join(scratch, "export.wacz");
    await download.saveAs(wacz);
    // No key configured for this studio: unsigned, and otherwise whole.
    // The four are derived captures, stored without a WACZ of their own: each packaged from its files.
    const checked = await verifyWacz(wacz, { tsaCa: readFileSync(fixture.tsaCaFile, "utf8") });
    expect({ ...checked, manifests: checked.manifests.length }).toEqual({
      ok: true,
      problems: [],
      captures: 4,
      signed: false,
      fingerprint: null,
      signedAt: null,
      sealedAtCapture: [],
      manifests: 4,
    });
    const logged = readEvents(team.studio.repo).filter((e) => e.event === "exported");
    expect(logged.at(-1)).toMatchObject({ export: { selection: "2026-03-13 to 2026-03-14 (WACZ)" } });
    expect(logged.at(-1)!.export!.captures).toEqual(["20260311T061700Z", "20260313T061700Z", "20260314T061700Z", "20260314T154000Z"]);
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

/** The replay frame of a capture's page, and its address. */
const replayFrame = (page: Page) => page.frameLocator('iframe[title$="replayed as served"]');
const replaySrc = async (page: Page) => `${team.url}${await page.locator('iframe[title$="replayed as served"]').getAttribute("src")}`;

describe("the replay, faithful and sealed", () => {
  it("runs the recorded scripts in server mode (the contact form from the WARC), and nothing leaves the studio while every page is read", async () => {
    // Casey in a browser of her own whose clock the test moves: the popup comes at 4 s of page time, and stays until she closes it.
    const { context, page } = await signIn(team, "casey.compliance@example.com", "/admin/records");
    const requests: Request[] = [];
    const refused: string[] = [];
    page.on("request", (request) => requests.push(request));
    page.on("console", (message) => /Content Security Policy/.test(message.text()) && refused.push(message.text()));
    await page.clock.install({ time: new Date("2026-03-14T12:00:00Z") });
    await page.clock.pauseAt(new Date("2026-03-14T12:00:01Z"));
    await page.goto(`${team.url}/admin/records/capture/${demo.names.deployed}`);
    const pages = await page.getByRole("navigation", { name: "Pages of this capture" }).getByRole("link").all();
    const titles = await Promise.all(pages.map((link) => link.textContent()));
    expect(titles.length).toBeGreaterThan(5);
    for (const title of titles) {
      await page.getByRole("navigation", { name: "Pages of this capture" }).getByRole("link", { name: title!, exact: true }).click();
      await expectPage(page.locator("#page-heading")).toHaveText(title!);
      await expectPage(replayFrame(page).getByRole("heading", { level: 1 }).first()).toBeVisible();
      if (title !== "Landing page") continue;
      const replay = replayFrame(page);
      // In view, as the examiner reads it: Chromium draws (and animates) a frame out of view only now and then.
      await page.locator('iframe[title$="replayed as served"]').scrollIntoViewIfNeeded();
      // A first visit: the popup at 4 s, closed by its Close button; then the contact form, loaded by its button.
      await page.clock.runFor(4_500);
      const popup = replay.getByRole("dialog", { name: "Under Development" });
      await expectPage(popup).toBeVisible();
      // The popup's script focuses its Close button; the studio's page keeps the keyboard's focus until the examiner is in the replay.
      await expectPage(page.locator('iframe[title$="replayed as served"]')).not.toBeFocused();
      await popup.getByRole("button", { name: "Close" }).click();
      await page.clock.runFor(1_000);
      await expectPage(popup).toHaveCount(0);
      // The form's island comes to life as the examiner reaches its section, as a visitor's did.
      await replay.locator("#contact").scrollIntoViewIfNeeded();
      await replay.getByRole("button", { name: "Load the contact form" }).click();
      const form = replay.frameLocator('iframe[title="Contact Us"]');
      await expectPage(form.getByLabel("Full name")).toBeVisible();
      await expectPage(replay.locator("[data-form-state]")).toHaveAttribute("data-form-state", "loaded");
    }
    // Every request the browser made went to the studio; each of the replay's was answered from the WARC, or as not archived.
    const answered = await Promise.all(
      requests
        .filter((request) => /^(https?|wss?):/.test(request.url()))
        .map(async (request) => ({ url: request.url(), response: await request.response() })),
    );
    expect(answered.filter(({ url }) => !url.startsWith(`${team.url}/`)).map(({ url }) => url)).toEqual([]);
    const replayed = answered.filter(({ url }) => url.includes("/replay/"));
    const root = `${team.url}/admin/records/capture/${demo.names.deployed}/replay/`;
    expect(replayed.filter(({ url }) => !url.startsWith(root)).map(({ url }) => url)).toEqual([]);
    const sources = replayed.map(
      ({ url, response }) => `${response?.headers()["x-replay"]} ${response?.status()} ${url.slice(root.length)}`,
    );
    // The 404 page is the site's own answer to an unknown address, as recorded.
    expect(sources.filter((line) => !/^archived ([23]\d\d |404 [\w-]+\/no-such-page$)|^not archived 404 /.test(line))).toEqual([]);
    // The form's provider, a third party, answered from the capture.
    expect(sources.filter((line) => /^archived 200 [^/]+\/\.external\/https\/forms\.example\.net\//.test(line))).toHaveLength(2);
    expect(refused).toEqual([]);
    await context.close();
  }, 300_000);

  it("shows the page as a first visit saw it, or with the overlays closed as its visitor closed them", async () => {
    const { context, page } = await signIn(team, "casey.compliance@example.com", "/admin/records");
    await page.setViewportSize({ width: 375, height: 812 });
    await page.clock.install({ time: new Date("2026-03-14T12:00:00Z") });
    await page.clock.pauseAt(new Date("2026-03-14T12:00:01Z"));
    await page.goto(`${team.url}/admin/records/capture/${demo.names.deployed}`);
    const replay = replayFrame(page);
    await expectPage(replay.getByRole("region", { name: "Cookie consent" })).toBeVisible();
    await page.clock.runFor(4_500);
    await expectPage(replay.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    await page.getByRole("link", { name: "Show it with the overlays closed" }).click();
    await expectPage(page.locator("[data-overlays]")).toHaveAttribute("data-overlays", "closed");
    expect(new URL(page.url()).searchParams.get("overlays")).toBe("closed");
    await expectPage(replay.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // The consent the visitor gave (Reject All), read before the first paint: no banner; the popup closed by its own button as it came.
    await expectPage(replay.locator("html")).toHaveAttribute("data-consent", "rejected");
    await expectPage(replay.getByRole("region", { name: "Cookie consent" })).toBeHidden();
    await page.clock.runFor(4_500);
    await expectPage(replay.locator("html")).toHaveAttribute("data-replay-closed", "popup");
    await page.clock.runFor(1_000);
    await expectPage(replay.getByRole("dialog")).toHaveCount(0);
    // The view holds from page to page, and the other is one link away.
    await page.getByRole("navigation", { name: "Pages of this capture" }).getByRole("link", { name: "Privacy Policy" }).click();
    await expectPage(replay.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
    await expectPage(replay.getByRole("region", { name: "Cookie consent" })).toBeHidden();
    await page.getByRole("link", { name: "Show it as a first visit saw it" }).click();
    await expectPage(page.locator("[data-overlays]")).toHaveAttribute("data-overlays", "shown");
    await expectPage(replay.getByRole("region", { name: "Cookie consent" })).toBeVisible();
    await context.close();
  }, 180_000);

  it("opens only with its pass, which ends with the session it was made for and never reaches the log", async () => {
    const lines: string[] = [];
    const previous = setLogSink((line) => void lines.push(line));
    try {
      const pat = await signIn(team, "pat.example@example.com", `/admin/records/capture/${demo.names.deployed}`);
      const src = await replaySrc(pat.page);
      const pass = src.split("/replay/")[1]!.split("/")[0]!;
      expect(pass).toMatch(/^[\w-]{43}$/);
      // No cookie: the pass alone opens it (the replay's frame is an opaque origin and sends none).
      const anonymous = await team.browser.newContext();
      const opened = await anonymous.request.get(src);
      expect(opened.status()).toBe(200);
      expect(opened.headers()["x-replay"]).toBe("archived");
      // A pass made up, or of another capture, opens nothing.
      const made = await anonymous.request.get(src.replace(pass, "A".repeat(43)));
      expect(made.status()).toBe(403);
      expect(await made.text()).toContain("This replay's address no longer opens it");
      expect((await anonymous.request.get(src.replace(demo.names.deployed, demo.names.drifted))).status()).toBe(403);
      // Signed out, the pass is gone with the session.
      await pat.page.getByRole("button", { name: "Sign out" }).click();
      await pat.page.getByRole("button", { name: "Yes, sign me out" }).click();
      await expectPage(pat.page.getByRole("heading", { level: 1 })).toHaveText("You are signed out");
      expect((await anonymous.request.get(src)).status()).toBe(403);
      await anonymous.close();
      await pat.context.close();
      const logged = lines.filter((line) => line.includes("/replay/"));
      expect(logged.length).toBeGreaterThan(2);
      expect(logged.filter((line) => line.includes(pass))).toEqual([]);
      expect(logged.some((line) => line.includes(`/admin/records/capture/${demo.names.deployed}/replay/(pass)/`))).toBe(true);
    } finally {
      setLogSink(previous);
    }
  });
});

describe("the records' bad input", () => {
  it("answers each address that names nothing the store has with 4xx and one sentence, never a 5xx or another page", async () => {
    const { page } = casey;
    const { deployed, incomplete } = demo.names;
    const cases: Array<[string, number, string | RegExp]> = [
      [`/admin/records/capture/${deployed}/files/%E0%A4%A`, 400, `"%E0%A4%A" is not a file name: it has a broken %-escape.`],
      [`/admin/records/capture/${deployed}/files/no-such-file.json`, 404, `The capture ${deployed} has no file named no-such-file.json.`],
      [`/admin/records/capture/${deployed}/pdf/no-such-page.pdf`, 404, `The capture ${deployed} has no file named pdf/no-such-page.pdf.`],
      ["/admin/records/capture/20990101T000000Z", 404, "The store has no capture named 20990101T000000Z"],
      ["/admin/records/capture/%E0%A4%A", 404, `"%E0%A4%A" is not the name of a capture`],
      [`/admin/records/capture/${deployed}?page=/disclosures/no-such-page`, 404, /has no page at \/disclosures\/no-such-page\.$/],
      ["/admin/records?at=2026-03-14T12:00&page=/disclosures/no-such-page", 404, /has no page at \/disclosures\/no-such-page\.$/],
      [`/admin/records/capture/${deployed}?page=%E0%A4%A`, 404, /has no page at %E0%A4%A\.$/],
      [`/admin/records/capture/${deployed}?overlays=sideways`, 400, `"sideways" is no view of a replay`],
      ["/admin/records/compare?a=20990101T000000Z", 404, "The store has no capture named 20990101T000000Z"],
      [`/admin/records/compare?a=${deployed}&b=nonsense`, 404, `"nonsense" is not the name of a capture`],
      [`/admin/records/compare?a=${incomplete}&b=${deployed}`, 404, "never finished, so there is nothing in it to compare"],
      [`/admin/records/compare?a=${deployed}`, 400, "Choose both captures to compare"],
      ["/admin/records?before=yesterday", 400, `"yesterday" is not the name of a capture`],
      ["/admin/records/no-such-screen", 404, "The Records have no page at this address"],
    ];
    for (const [path, status, sentence] of cases) {
      const response = await page.goto(`${team.url}${path}`);
      expect(response?.status(), path).toBe(status);
      await expectPage(page.getByRole("alert"), path).toContainText(sentence);
    }
    // A page of a capture lists the pages it has, to go on from.
    await page.goto(`${team.url}/admin/records/capture/${deployed}?page=/disclosures/no-such-page`);
    await page.getByRole("link", { name: "Privacy Policy" }).click();
    await expectPage(page.locator("#page-heading")).toHaveText("Privacy Policy");
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
