/**
 * A disclosure the firm adds and later withdraws, through the team studio's admin in Chromium, with an
 * editor and a principal each signed in through the IdP: a title whose address is taken is refused
 * before anything is saved; a new disclosure is saved, reviewed as a new page, approved and published;
 * the firm's git host then builds it at its address, in the index, the sitemap and a capture. Its
 * withdrawal is reviewed as "Withdraws …", and once published its address answers the notice on our
 * server, nginx and Cloudflare's runtime, while the earlier capture keeps the page as it was.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { projectRoot } from "../../lib/root.ts";
import { capture, type Capture } from "../../lib/records/capture.ts";
import { withSiteServer } from "../../server/app.ts";
import { approvedHashOf } from "../../lib/records/manifest.ts";
import { parseLedger } from "../../lib/approval/ledger.ts";
import { dayIn } from "../../lib/approval/reviews.ts";
import { monthWritten } from "../../lib/dates.ts";
import { openAdmin, publishNow, reviewReady, setStatus } from "../../testing/studio/trial-admin.ts";
import { fillNewDisclosure, save, withdraw, FEE_SCHEDULE } from "../../testing/studio/trial-disclosure.ts";
import { findEntry } from "../../studio/workflow/entries.ts";
import { expectWithdrawnEverywhere, serveOnThreeHosts } from "../server/three-hosts.ts";
import { api, confirmItsYou, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";
import { smallDist } from "../support/small-dist.ts";

let team: Team;
let erin: Page;
let erinContext: BrowserContext;
let pat: Page;
const scratch = mkdtempSync(join(tmpdir(), "disclosures-"));
const pageErrors: string[] = [];
let firstCapture: Capture;
/** What the captures here take: the disclosure and the index it joins (every page is captured in capture.test.ts). */
const CAPTURED = ["/fee-schedule", "/disclosures"];

beforeAll(async () => {
  team = await startTeam();
});
afterAll(async () => {
  await team?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const fees = () => findEntry(team.studio.repo, "disclosures", "fee-schedule");
const cmsBranches = () => team.clone("for-each-ref", "--format=%(refname:short)", "refs/heads/cms/");

/** The git host's main, cloned and built as the firm's pipeline builds it (the approval gate included). */
function buildHostMain(name: string): string {
  const site = join(scratch, name);
  execFileSync("git", ["clone", "--quiet", "--branch", "main", team.host.bare, site]);
  symlinkSync(join(projectRoot, "node_modules"), join(site, "node_modules"), "dir");
  execFileSync(process.execPath, ["scripts/astro.ts", "build"], { cwd: site, stdio: "pipe" });
  return site;
}

async function submit() {
  await setStatus(erin, "In review");
  // Decap shows the new status before the studio has recorded it: wait for the repository's own record.
  await vi.waitUntil(() => fees()?.status === "pending_review", { timeout: 30_000, interval: 100 });
}

async function approve(pages: number) {
  await confirmItsYou(team, pat, "pat.example@example.com", "/admin/review/disclosures/fee-schedule");
  await pat.getByRole("button", { name: `Approve ${pages} pages` }).click({ timeout: 120_000 });
  await reviewReady(pat);
  await expectPage(pat.getByRole("status")).toContainText("Approved Fee Schedule as Pat Example: it is Ready");
  expect(fees()?.status).toBe("pending_publish");
}

async function publish() {
  await openAdmin(erin, team.url, "/collections/disclosures/entries/fee-schedule");
  await publishNow(erin);
  await erin.getByText("Entry published", { exact: false }).first().waitFor({ timeout: 120_000 });
  expect(team.clone("rev-parse", "main")).toBe(team.origin("rev-parse", "main"));
}

describe("a disclosure added and withdrawn in the team studio", () => {
  it("refuses a title whose address a legal page has, in one sentence, before anything is saved", async () => {
    ({ context: erinContext, page: erin } = await signIn(team, "erin.editor@example.com", "/admin/"));
    const before = team.origin("rev-parse", "main");
    await fillNewDisclosure(erin, team.url, { ...FEE_SCHEDULE, title: "Terms of Service" });
    expect(await save(erin)).toEqual({
      saved: false,
      refusal: "The address /terms-of-service, made from the title, is taken by Terms of Service: give the page a title of its own.",
    });
    expect(cmsBranches()).toBe("");
    expect(team.origin("rev-parse", "main")).toBe(before);
  }, 180_000);

  it("the editor adds the disclosure from the collection's form and sends it to review", async () => {
    // From here on, none (Decap leaves the refused save above as an unhandled rejection, "Object").
    erin.on("pageerror", (error) => pageErrors.push(String(error)));
    await erin.goto("about:blank");
    await fillNewDisclosure(erin, team.url, FEE_SCHEDULE);
    expect(await save(erin)).toEqual({ saved: true });
    await erin.waitForURL(/#\/collections\/disclosures\/entries\/fee-schedule$/);
    const file = team.clone("show", "cms/disclosures/fee-schedule:src/content/disclosures/fee-schedule.md");
    expect(file).toContain("title: Fee Schedule");
    expect(file).toMatch(/^## Fees for ATS Subscribers$/m);
    expect(file).not.toContain("withdrawn");
    expect(team.clone("log", "-1", "--format=%an", "cms/disclosures/fee-schedule")).toBe("Erin Editor");
    await submit();
  }, 180_000);

  it("the principal reviews it as a new page, with the index it joins, and approves both", async () => {
    ({ page: pat } = await signIn(team, "pat.example@example.com", "/admin/review/disclosures/fee-schedule"));
    await expectPage(pat.getByRole("heading", { level: 1 })).toHaveText("Fee Schedule");
    await expectPage(pat.locator("[data-entry-change]")).toContainText("Adds Fee Schedule, a new page at /fee-schedule");
    // The review it will be kept to, from the policy on main: the default, since the policy does not name it (issue 54).
    await expectPage(pat.locator("[data-entry-change]")).toContainText(
      "Once published, it is reviewed every 12 months (the review policy's default: Written supervisory procedures (FINRA 3110)); owner: Compliance.",
    );
    const page = pat.locator('[data-page="/fee-schedule"]');
    await expectPage(page.getByRole("heading", { level: 2 })).toContainText("(a new page)");
    await expectPage(page).toContainText("This page is new: there is no approved version.");
    await expectPage(pat.locator('[data-page="/disclosures"] .diff ins').first()).toBeVisible();
    await approve(2);
    const ledger = JSON.parse(team.clone("show", "cms/disclosures/fee-schedule:approvals/ledger.json")) as {
      pages: Record<string, { approvedBy: string; history: unknown[]; review?: string }>;
    };
    // Both pages' own words are new or changed: the approval is their review (decision 0056).
    expect(ledger.pages["/fee-schedule"]).toMatchObject({
      approvedBy: "Pat Example, Series 24, CRD 1000001",
      history: [],
      review: "changed",
    });
    expect(ledger.pages["/disclosures"]?.history.length).toBeGreaterThan(0);
    expect(ledger.pages["/disclosures"]?.review).toBe("changed");
  }, 400_000);

  it("publish puts it on the git host, whose main builds it at its address, in the index, the sitemap and a capture", async () => {
    await publish();
    expect(team.origin("show", "main:src/content/disclosures/fee-schedule.md")).toContain("title: Fee Schedule");
    const site = buildHostMain("published");
    const dist = join(site, "dist");
    const feeSchedule = readFileSync(join(dist, "fee-schedule.html"), "utf8");
    expect(feeSchedule).toContain("Each executed order is charged a fee per share");
    // The review the approval was dates the page, in the firm's zone; the production build's gate passed on that text.
    const approvedOn = parseLedger(team.origin("show", "main:approvals/ledger.json")).pages["/fee-schedule"]!.approvedOn;
    expect(feeSchedule).toContain(`Last reviewed: ${monthWritten(dayIn(approvedOn, "America/New_York"))}`);
    expect(readFileSync(join(dist, "disclosures.html"), "utf8")).toContain('href="/fee-schedule"');
    expect(readFileSync(join(dist, "sitemap.xml"), "utf8")).toContain("/fee-schedule</loc>");
    // Captured: the disclosure and the index it joins, served from the host's build (tests/support/small-dist.ts).
    const pages = smallDist(dist, CAPTURED, join(scratch, "published-pages"));
    firstCapture = await withSiteServer(pages, (origin) =>
      capture({ dist: pages, root: site, outRoot: join(scratch, "captures"), kind: "deploy", origin, ownBuild: true }),
    );
    const captured = firstCapture.manifest.pages.find((p) => p.path === "/fee-schedule");
    expect(captured).toMatchObject({ status: 200, title: "Fee Schedule" });
    expect(captured!.textSha256).toBe(approvedHashOf(firstCapture.manifest, "/fee-schedule"));
    expect(pageErrors).toEqual([]);
  }, 400_000);

  it("refuses a withdrawal of the business continuity summary in one sentence", async () => {
    const path = "src/content/disclosures/business-continuity.md";
    const raw = team.clone("show", `main:${path}`).replace(/^lastUpdated: .*$/m, (line) => `${line}\nwithdrawn: 2026-12-01`);
    const refused = await api(team, erinContext, "persistEntry", {
      branch: "main",
      dataFiles: [{ path, slug: "business-continuity", raw }],
      assets: [],
      options: { collectionName: "disclosures", commitMessage: "Update", useWorkflow: true, status: "draft" },
    });
    expect(refused).toEqual({
      status: 422,
      body: {
        error:
          "Business Continuity Plan Summary cannot be withdrawn: FINRA Rule 4370 requires the summary of the business continuity plan on the website.",
      },
    });
  });

  it("a withdrawal is reviewed as one; once published, the address answers the notice on all three servers", async () => {
    await withdraw(erin, team.url, "fee-schedule", "2026-12-01");
    await submit();
    await pat.goto(`${team.url}/admin/review/disclosures/fee-schedule`);
    await reviewReady(pat);
    await expectPage(pat.locator("[data-entry-change]")).toContainText(
      "Withdraws Fee Schedule: once published, /fee-schedule says it was withdrawn on December 1, 2026",
    );
    // The page as it will be built: the notice, in the review's frame of the entry's version.
    const entryFrame = pat.locator('[data-page="/fee-schedule"] iframe').last().contentFrame();
    await expectPage(entryFrame.getByText("This disclosure was withdrawn on December 1, 2026.")).toBeVisible();
    await expectPage(pat.locator('[data-page="/fee-schedule"] .diff ins').filter({ hasText: "withdrawn" }).first()).toBeVisible();
    await approve(2);
    await publish();
    const site = buildHostMain("withdrawn");
    const three = await serveOnThreeHosts(site);
    try {
      await expectWithdrawnEverywhere(site, three.hosts, "/fee-schedule", { title: "Fee Schedule", day: "December 1, 2026" });
    } finally {
      await three.stop();
    }
    // Captured now as its notice; the capture before keeps the disclosure as it was.
    const pages = smallDist(join(site, "dist"), CAPTURED, join(scratch, "withdrawn-pages"));
    const later = await withSiteServer(pages, (origin) =>
      capture({ dist: pages, root: site, outRoot: join(scratch, "captures"), kind: "deploy", origin, ownBuild: true }),
    );
    const [was, now] = [firstCapture, later].map((c) => c.manifest.pages.find((p) => p.path === "/fee-schedule")!);
    expect(now).toMatchObject({ status: 200 });
    expect(now!.textSha256).not.toBe(was!.textSha256);
    expect(readFileSync(join(firstCapture.folder, "manifest.json"), "utf8")).toContain(was!.textSha256);
    expect(pageErrors).toEqual([]);
  }, 600_000);
});
