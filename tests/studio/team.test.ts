/**
 * The team studio, the whole path with two people, each signed in through the IdP in a browser of their
 * own: the editor edits and sends to review; the principal requests changes with a comment; the editor
 * sees it, revises and sends again; the principal signs in again and approves; the editor publishes;
 * the firm's git host then holds the change and the approval, and its main builds. Then a page's review:
 * the board's "Reviews due", an editor's forged review refused, and the principal's "Reviewed, no change".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { projectRoot } from "../../lib/root.ts";
import { openAdmin, openReview, publishNow, reviewReady, setStatus } from "../../testing/studio/trial-admin.ts";
import { findEntry } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { answerSignIn, confirmItsYou, postForm, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";
import { parseLedger } from "../../lib/approval/ledger.ts";
import { addDuration, dayIn, parseDuration } from "../../lib/approval/reviews.ts";
import { projectReviews } from "../../lib/approval/review-report.ts";
import { monthWritten } from "../../lib/dates.ts";
import { framePicture } from "./a11y-support.ts";

let team: Team;
let erin: Page;
/** Uncaught errors in the editor's admin page: there must be none. */
const pageErrors: string[] = [];
let pat: Page;
const FIRST = "The trusted leader in institutional digital asset trading, settled";
const REVISED = "The trusted leader in institutional digital-asset trading";

beforeAll(async () => {
  team = await startTeam();
});
afterAll(() => team?.stop(), 60_000);

const hero = () => findEntry(team.studio.repo, "landing", "hero");
const editHeadline = async (text: string) => {
  await openAdmin(erin, team.url, "/collections/landing/entries/hero");
  await erin.getByLabel("Headline", { exact: true }).fill(text);
  await erin.getByRole("button", { name: "Save" }).click();
  await erin.getByText("Changes saved").waitFor();
  await setStatus(erin, "In review");
  // Decap shows the new status before the studio has recorded it: wait for the repository's own record.
  await vi.waitUntil(() => hero()?.status === "pending_review", { timeout: 30_000, interval: 100 });
};

describe("the team studio, an editor and a principal in their own browsers", () => {
  it("the editor signs in, sees who they are, and saves a draft authored by them", async () => {
    ({ page: erin } = await signIn(team, "erin.editor@example.com", "/admin/"));
    erin.on("pageerror", (error) => pageErrors.push(String(error)));
    await expectPage(erin.locator("#studio-bar")).toContainText("Erin Editor · Editor");
    await editHeadline(FIRST);
    expect(team.clone("log", "-1", "--format=%an <%ae>|%cn", "cms/landing/hero")).toBe(
      "Erin Editor <erin.editor@example.com>|Content studio",
    );
    expect(team.clone("log", "-1", "--format=%(trailers:key=Studio-Actor,valueonly)", "cms/landing/hero")).toMatch(
      new RegExp(`^${team.idp.issuer} user-1`),
    );
    // Waiting for approval: Publish is not offered, and the entry says why.
    await expectPage(erin.locator('[data-studio-notice="entry-state"]')).toContainText("Publish appears once it is approved");
    await expectPage(erin.getByRole("button", { name: "Publish", exact: true })).toBeHidden();
  }, 180_000);

  it("the principal requests changes with a comment; the entry is a draft again", async () => {
    ({ page: pat } = await signIn(team, "pat.example@example.com", "/admin/review/landing/hero"));
    await expectPage(pat.getByRole("heading", { level: 1 })).toHaveText("Landing page: Hero");
    await expectPage(pat.getByText("edited by Erin Editor")).toBeVisible();
    await pat.getByLabel(/^Comment for the editor/).fill("Write digital-asset with a hyphen, and drop “settled”.");
    await pat.getByRole("button", { name: "Request changes" }).click();
    await reviewReady(pat);
    await expectPage(pat.getByRole("status")).toHaveText("Changes requested on Landing page: Hero: the editor sees your comment.");
    expect(hero()?.status).toBe("draft");
    // The page came from a redirect: a reload shows it again and repeats nothing.
    await pat.reload();
    expect(readEvents(team.studio.repo).map((e) => e.event)).toEqual(["submitted", "changes_requested"]);
  }, 300_000);

  it("the editor sees the comment on the entry, revises and sends it back to review", async () => {
    await openAdmin(erin, team.url, "/collections/landing/entries/hero");
    const notice = erin.locator('[data-studio-notice="entry-state"]');
    await expectPage(notice).toContainText("Changes requested by Pat Example");
    await expectPage(notice).toContainText("Write digital-asset with a hyphen");
    await expectPage(notice.getByRole("link", { name: "Open its review" })).toHaveAttribute("href", "/admin/review/landing/hero");
    await editHeadline(REVISED);
  }, 180_000);

  it("the principal confirms it is them, and approves: the roster's record goes with the approval", async () => {
    await openReview(pat, team.url, "landing/hero");
    await expectPage(pat.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
    await pat.getByRole("link", { name: "Confirm it's you to approve" }).click();
    // prompt=login: the IdP asks for the password again, although its session is alive.
    await answerSignIn(pat, team.person("pat.example@example.com"));
    await reviewReady(pat);
    await pat.getByRole("button", { name: "Approve 1 page" }).click({ timeout: 120_000 });
    await reviewReady(pat);
    await expectPage(pat.getByRole("status")).toHaveText("Approved Landing page: Hero as Pat Example: it is Ready, and can be published.");
    await expectPage(
      pat.getByRole("list").filter({ hasText: "Approved by Pat Example (Principal, Series 24, CRD 1000001)" }),
    ).toBeVisible();
    expect(hero()?.status).toBe("pending_publish");
    expect(team.clone("log", "-1", "--format=%an <%ae>", "cms/landing/hero")).toBe("Pat Example <pat.example@example.com>");
    const approved = readEvents(team.studio.repo).at(-1)!;
    expect(approved).toMatchObject({
      event: "approved",
      authors: ["erin.editor@example.com"],
      separation: "ok",
      actor: { crd: "1000001" },
    });
  }, 300_000);

  it("the editor publishes: the firm's git host has the change and the ledger entry, and its main builds", async () => {
    const before = team.origin("rev-parse", "main");
    await openAdmin(erin, team.url, "/collections/landing/entries/hero");
    await publishNow(erin);
    await erin.getByText("Entry published", { exact: false }).first().waitFor({ timeout: 120_000 });
    expect(team.origin("rev-parse", "main^1")).toBe(before);
    expect(team.origin("show", "main:src/content/landing/hero.yaml")).toContain(`headline: ${REVISED}`);
    const ledger = JSON.parse(team.origin("show", "main:approvals/ledger.json")) as { pages: Record<string, Record<string, unknown>> };
    expect(ledger.pages["/"]).toMatchObject({
      approvedBy: "Pat Example, Series 24, CRD 1000001",
      principal: { email: "pat.example@example.com", name: "Pat Example", crd: "1000001", registration: "Series 24" },
    });
    expect(team.clone("rev-parse", "main")).toBe(team.origin("rev-parse", "main"));
    await expectPage(erin.locator('[data-studio-notice="published"]')).toContainText(
      "Published Landing page: Hero: the firm's repository has it",
    );
    expect(pageErrors).toEqual([]);
    expect(team.origin("show", "studio-log:events.jsonl")).toContain('"event":"published"');
    // The firm's pipeline builds what the git host has: the gate passes.
    const scratch = mkdtempSync(join(tmpdir(), "origin-build-"));
    try {
      execFileSync("git", ["clone", "--quiet", "--branch", "main", team.host.bare, join(scratch, "site")]);
      symlinkSync(join(projectRoot, "node_modules"), join(scratch, "site", "node_modules"), "dir");
      execFileSync(process.execPath, ["scripts/astro.ts", "build"], { cwd: join(scratch, "site"), stdio: "pipe" });
      expect(readFileSync(join(scratch, "site", "dist", "index.html"), "utf8")).toContain(REVISED);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 400_000);
});

describe("a page reviewed with no change, by the principal (issue 54)", () => {
  const RISK = "/admin/pages/review?page=%2Frisk-disclosures";

  it("Reviews due names the overdue legal pages; an editor's forged review gets 403; the principal's review reaches the host, the log and the page", async () => {
    await pat.goto(`${team.url}/admin/approvals`);
    const due = pat.locator("[data-reviews-due] li");
    await expectPage(due).toHaveCount(4);
    await expectPage(pat.locator('[data-reviews-due] li[data-page="/risk-disclosures"]')).toHaveText(
      "Overdue: Risk Disclosures: review overdue since 15 Jan 2026 (FINRA 2210(d)(1), every 12 months); owner: Compliance. Start review",
    );

    // The editor is offered no review, and a review forged with the editor's own form token is refused.
    await erin.goto(`${team.url}${RISK}`);
    await expectPage(erin.getByText("A registered principal on the roster records the review")).toBeVisible();
    await expectPage(erin.getByRole("link", { name: "edit Risk Disclosures" })).toHaveAttribute(
      "href",
      "/admin/#/collections/legal/entries/risk-disclosures",
    );
    const before = team.origin("rev-parse", "main");
    const forged = await postForm(team, erin, "/admin/pages/review", { page: "/risk-disclosures", head: team.clone("rev-parse", "main") });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("Only a registered principal on the roster can record a review of a page.");
    expect(team.origin("rev-parse", "main")).toBe(before);

    // The principal reads when it was last reviewed, confirms it is them, and records the review.
    await confirmItsYou(team, pat, "pat.example@example.com", RISK);
    await expectPage(pat.locator("main")).toContainText('last reviewed 15 Jan 2025 (no review recorded: counted from its "Last updated")');
    // The page as published is a picture, as in an entry's review (decision 0029): nothing in it takes focus, and nothing
    // in it can move (its links' colour transitions included).
    const published = pat.getByTitle("Risk Disclosures, as published").contentFrame();
    await expectPage(published.locator("h1")).toHaveText("Risk Disclosures");
    expect(await framePicture(published)).toEqual({ focusable: 0, moving: 0 });
    await pat.getByRole("button", { name: "Reviewed, no change" }).click();
    await expectPage(pat.getByRole("status")).toContainText("Recorded: Risk Disclosures reviewed, no change, by Pat Example.");
    await expectPage(due).toHaveCount(3);
    await expectPage(pat.locator('[data-reviews-due] li[data-page="/risk-disclosures"]')).toHaveCount(0);

    // The host's main has it in the ledger, authored by the principal; the review log names them.
    const entry = parseLedger(team.origin("show", "main:approvals/ledger.json")).pages["/risk-disclosures"]!;
    expect(entry).toMatchObject({
      review: "no change",
      approvedBy: "Pat Example, Series 24, CRD 1000001",
      principal: { email: "pat.example@example.com", crd: "1000001" },
      commit: before,
    });
    expect(team.origin("log", "-1", "--format=%an|%P", "main")).toBe(`Pat Example|${before}`);
    const logged = team.origin("show", "studio-log:events.jsonl").trim().split("\n").at(-1)!;
    expect(JSON.parse(logged)).toMatchObject({
      event: "reviewed",
      entry: { slug: "/risk-disclosures", name: "Risk Disclosures" },
      actor: { name: "Pat Example", crd: "1000001", role: "principal" },
      pages: [{ page: "/risk-disclosures", sha256: entry.sha256 }],
    });

    // The page as built from main says when, in the firm's zone; npm run reviews there says it is ok for a year.
    const day = dayIn(entry.approvedOn, "America/New_York");
    const frame = await pat.context().request.get(`${team.url}/admin/pages/frame?page=%2Frisk-disclosures`);
    expect(await frame.text()).toContain(`Last reviewed: ${monthWritten(day)}`);
    const site = mkdtempSync(join(tmpdir(), "reviewed-"));
    try {
      execFileSync("git", ["clone", "--quiet", "--branch", "main", team.host.bare, site]);
      const risk = projectReviews(site, day).reviews.find((r) => r.page === "/risk-disclosures");
      expect(risk).toMatchObject({
        status: "ok",
        lastDay: day,
        dueDay: addDuration(day, parseDuration("P12M")!),
        review: { by: entry.approvedBy },
      });
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  }, 300_000);
});
