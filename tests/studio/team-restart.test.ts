/**
 * The team studio restarted in the middle of a review: every entry keeps its status and its history
 * (they live in the studio's clone and the review log), sessions end (they live in the process), and
 * signing in brings each person back, through the IdP's own session, without a password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPage } from "../../testing/expect-page.ts";
import { listEntries } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { editAndSubmit, postForm, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";

let team: Team;
beforeAll(async () => {
  team = await startTeam();
});
afterAll(() => team?.stop(), 60_000);

const board = () => listEntries(team.studio.repo).map((e) => `${e.branch} ${e.status}`);

describe("a restart in the middle of a review", () => {
  it("keeps the board and the history, ends the sessions, and signing in brings everyone back", async () => {
    const erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await editAndSubmit(team, erin.context, "hero", (raw) => raw.replace(/^headline: .*$/m, "headline: Settlement for institutions"));
    await editAndSubmit(team, erin.context, "popup", (raw) => raw.replace("get in touch", "write to us"));
    const pat = await signIn(team, "pat.example@example.com", "/admin/review/landing/popup");
    expect(
      (await postForm(team, pat.page, "/admin/review/landing/popup", { decision: "request_changes", comment: "Keep “get in touch”." }))
        .status,
    ).toBe(303);
    const before = { board: board(), events: readEvents(team.studio.repo) };
    expect(before.board).toEqual(["cms/landing/hero pending_review", "cms/landing/popup draft"]);

    await team.restart();

    expect({ board: board(), events: readEvents(team.studio.repo) }).toEqual(before);
    // The old session is gone: the API answers 401, a page sends the person to sign in.
    expect(
      (await erin.context.request.post(`${team.url}/api/v1`, { data: { action: "info" }, headers: { Origin: team.url } })).status(),
    ).toBe(401);
    const page = await erin.context.request.get(`${team.url}/admin/approvals`, { headers: { Accept: "text/html" }, maxRedirects: 0 });
    expect([page.status(), page.headers().location]).toEqual([303, "/auth/login?return=%2Fadmin%2Fapprovals"]);
    // Signing in again: the IdP still knows the person, so no password is asked, and the board is as it was.
    await erin.page.goto(`${team.url}/admin/approvals`);
    await expectPage(erin.page.getByRole("heading", { level: 1 })).toHaveText("Approvals");
    await expectPage(erin.page.locator('li[data-entry="cms/landing/hero"]')).toContainText("Landing page: Hero");
    await expectPage(erin.page.locator('li[data-entry="cms/landing/popup"]')).toContainText("Changes requested by Pat Example");
    expect(await (await erin.context.request.get(`${team.url}/admin/session`)).json()).toMatchObject({
      name: "Erin Editor",
      role: "Editor",
    });
  }, 400_000);

  it("signing out ends the studio's session and the IdP's: the next visit asks for the password", async () => {
    const { context, page } = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await expectPage(page.getByRole("heading", { level: 1 })).toHaveText("You are signed out");
    expect((await context.request.get(`${team.url}/admin/session`)).status()).toBe(401);
    await page.goto(`${team.url}/admin/approvals`);
    await expectPage(page.getByLabel("Password")).toBeVisible();
  });
});
