/**
 * What the team studio refuses, each with one sentence, and with nothing changed: no session, someone
 * in neither group, an editor approving, an ended roster entry, an approval without a fresh sign-in, a
 * principal approving their own change, a forged form token, a cross-site request, git actions outside
 * the role's list, a publish after the firm's main moved the same lines, a push the git host refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { findEntry } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { reviewReady } from "../../testing/studio/trial-admin.ts";
import {
  adminCommit,
  answerSignIn,
  api,
  confirmItsYou,
  editAndSubmit,
  postForm,
  signIn,
  startTeam,
  type Team,
} from "../../testing/studio/team-support.ts";

let team: Team;
const people: Record<string, { context: BrowserContext; page: Page }> = {};
const REVIEW = "/admin/review/landing/hero";
const entry = (slug: string) => findEntry(team.studio.repo, "landing", slug);
const approvals = () => readEvents(team.studio.repo).filter((e) => e.event === "approved").length;
const approve = (who: string, path = REVIEW) => postForm(team, people[who]!.page, path, { decision: "approve", comment: "" });
const confirm = (who: string, path = REVIEW) => confirmItsYou(team, people[who]!.page, who, path);

beforeAll(async () => {
  team = await startTeam();
  for (const email of ["erin.editor@example.com", "pat.example@example.com", "sam.principal@example.com", "lee.former@example.com"])
    people[email] = await signIn(team, email, "/admin/approvals");
  await editAndSubmit(team, people["erin.editor@example.com"]!.context, "hero", (raw) =>
    raw.replace(/^headline: .*$/m, "headline: Settlement for institutions"),
  );
}, 300_000);
afterAll(() => team?.stop(), 60_000);

describe("the team studio refuses, in one sentence, changing nothing", () => {
  it("no session: a page is sent to sign in, an API call gets 401", async () => {
    const page = await fetch(`${team.url}/admin/approvals`, { redirect: "manual", headers: { Accept: "text/html" } });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/auth/login?return=%2Fadmin%2Fapprovals");
    const call = await fetch(`${team.url}/api/v1`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: team.url },
      body: JSON.stringify({ action: "info" }),
    });
    expect(call.status).toBe(401);
    expect(await call.json()).toEqual({
      error: "You are not signed in to the studio, or your session ended: reload the page to sign in again.",
    });
  });

  it("a sign-in that was not started here, or whose state does not match", async () => {
    const context = await team.browser.newContext();
    const stray = await context.request.get(`${team.url}/auth/callback?code=abc&state=xyz`);
    expect(stray.status()).toBe(400);
    expect(await stray.text()).toContain("The sign-in did not complete: this sign-in was not started here, or it took over ten minutes.");
    const started = await context.request.get(`${team.url}/auth/login?return=/admin/`, { maxRedirects: 0 });
    expect([started.status(), new URL(started.headers().location!).origin]).toEqual([303, team.idp.issuer]);
    const forged = await context.request.get(
      `${team.url}/auth/callback?${new URLSearchParams({ code: "abc", state: "not-the-one-sent", iss: team.idp.issuer })}`,
    );
    expect(forged.status()).toBe(400);
    expect(await forged.text()).toMatch(/The sign-in did not complete: .*state/);
    expect((await context.request.get(`${team.url}/admin/session`)).status()).toBe(401);
    await context.close();
  });

  it("someone in none of the groups, at sign-in", async () => {
    const context = await team.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${team.url}/admin/`);
    await answerSignIn(page, team.person("olive.outsider@example.com"));
    await expectPage(page.getByRole("alert")).toHaveText(
      /^Your account \(olive\.outsider@example\.com\) is in none of the studio's groups \(editors: studio-editors, principals: studio-principals, compliance: studio-compliance\)/,
    );
    expect((await context.request.get(`${team.url}/admin/session`)).status()).toBe(401);
    await context.close();
  });

  it.each([
    ["an editor", "erin.editor@example.com"],
    ["a principal whose roster entry has ended (an editor now)", "lee.former@example.com"],
  ])(
    "%s approving: no button, and a direct post is refused",
    async (_, who) => {
      const { page } = people[who]!;
      await page.goto(`${team.url}${REVIEW}`);
      await reviewReady(page);
      await expectPage(page.getByText("A registered principal on the roster decides on this entry")).toBeVisible();
      await expectPage(page.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
      const answer = await approve(who);
      expect(answer.status).toBe(403);
      expect(answer.text).toContain("Only a registered principal on the roster can approve, request changes or reject an entry.");
      expect([entry("hero")?.status, approvals()]).toEqual(["pending_review", 0]);
    },
    120_000,
  );

  it("an approval without a fresh sign-in", async () => {
    const { page } = people["sam.principal@example.com"]!;
    await page.goto(`${team.url}${REVIEW}`);
    await reviewReady(page);
    await expectPage(page.getByRole("link", { name: "Confirm it's you to approve" })).toBeVisible();
    await expectPage(page.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
    const answer = await approve("sam.principal@example.com");
    expect(answer.status).toBe(403);
    expect(answer.text).toContain("Approving needs you to confirm it is you");
    expect(approvals()).toBe(0);
  });

  it("a principal approving a change they wrote, even signed in afresh", async () => {
    const sam = people["sam.principal@example.com"]!;
    await editAndSubmit(team, sam.context, "popup", (raw) => raw.replace("get in touch", "write to us"));
    const path = "/admin/review/landing/popup";
    // Signed in afresh (on another entry's review, since this one offers Sam no approval at all).
    await confirm("sam.principal@example.com");
    await sam.page.goto(`${team.url}${path}`);
    await reviewReady(sam.page);
    await expectPage(sam.page.locator("[data-separation]")).toContainText(
      "You wrote part of this change, so another principal must approve it",
    );
    await expectPage(sam.page.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
    const answer = await approve("sam.principal@example.com", path);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain(
      "You wrote part of this change, so another principal must approve it (separation of duties, FINRA Rule 3110(b)(6)(C)).",
    );
    expect([entry("popup")?.status, approvals()]).toEqual(["pending_review", 0]);
  }, 300_000);

  it("a forged or missing form token, and a cross-site request", async () => {
    const { page } = people["pat.example@example.com"]!;
    await page.goto(`${team.url}${REVIEW}`);
    await reviewReady(page);
    for (const token of ["forged", ""]) {
      const answer = await postForm(team, page, REVIEW, { decision: "request_changes", comment: "x" }, token);
      expect([answer.status, answer.text]).toEqual([
        403,
        "This form has expired or did not come from the studio: reload the page and try again.\n",
      ]);
    }
    for (const headers of [{ Origin: "https://attacker.example" }, { Origin: team.url, "Sec-Fetch-Site": "cross-site" }] as Array<
      Record<string, string>
    >) {
      const answer = await page
        .context()
        .request.post(`${team.url}${REVIEW}`, { form: { decision: "reject", comment: "x" }, headers, maxRedirects: 0 });
      expect(answer.status()).toBe(403);
    }
    expect(entry("hero")?.status).toBe("pending_review");
  });

  it.each([
    ["saving straight to main", "persistEntry", { useWorkflow: false }, /^Saving straight to main is not allowed/],
    ["a write to another branch", "persistEntry", { branch: "release" }, /^Every action starts from main/],
    ["a path outside the content", "persistEntry", { path: "package.json" }, /outside the content folders/],
    ["deleting files", "deleteFiles", {}, /does not pass on "deleteFiles"/],
    ["setting Ready without an approval", "updateUnpublishedEntryStatus", {}, /^Only a principal's approval sets an entry to Ready/],
  ])("a git action outside the editor's list: %s", async (_, action, change, message) => {
    const before = [team.clone("rev-parse", "main"), team.origin("rev-parse", "main")];
    const path = (change as { path?: string }).path ?? "src/content/landing/hero.yaml";
    const params =
      action === "persistEntry"
        ? {
            branch: (change as { branch?: string }).branch ?? "main",
            dataFiles: [{ path, slug: "hero", raw: "headline: Hello\n" }],
            assets: [],
            options: {
              collectionName: "landing",
              commitMessage: "x",
              useWorkflow: (change as { useWorkflow?: boolean }).useWorkflow ?? true,
              status: "draft",
            },
          }
        : action === "deleteFiles"
          ? { branch: "main", paths: ["src/content/landing/hero.yaml"], options: { commitMessage: "x" } }
          : { branch: "main", collection: "landing", slug: "hero", newStatus: "pending_publish" };
    const answer = await api(team, people["erin.editor@example.com"]!.context, action, params);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatch(message);
    expect([team.clone("rev-parse", "main"), team.origin("rev-parse", "main"), entry("hero")?.status]).toEqual([
      ...before,
      "pending_review",
    ]);
  });
});

describe("publishing refused by the firm's git host, changing nothing", () => {
  const publish = (slug: string) =>
    api(team, people["erin.editor@example.com"]!.context, "publishUnpublishedEntry", { branch: "main", collection: "landing", slug });
  const state = (slug: string) => [
    team.origin("rev-parse", "main"),
    team.clone("rev-parse", "main"),
    entry(slug)?.head,
    entry(slug)?.status,
  ];

  it("a push the pre-receive hook refuses; once the hold is lifted, the same publish goes through", async () => {
    await confirm("pat.example@example.com");
    expect((await approve("pat.example@example.com")).status).toBe(303);
    const before = state("hero");
    expect(before[3]).toBe("pending_publish");
    team.host.holdMain("pushes are paused for the quarterly audit");
    const refused = await publish("hero");
    expect(refused).toEqual({
      status: 422,
      body: {
        error:
          "Not published: the firm's git host refused the push (main is protected: pushes are paused for the quarterly audit); nothing changed here or there.",
      },
    });
    expect(state("hero")).toEqual(before);
    team.host.holdMain(null);
    expect((await publish("hero")).status).toBe(200);
    expect(team.origin("show", "main:src/content/landing/hero.yaml")).toContain("headline: Settlement for institutions");
  }, 300_000);

  it("a publish after the firm's main moved the same lines", async () => {
    await editAndSubmit(team, people["erin.editor@example.com"]!.context, "industries", (raw) =>
      raw.replace(/^heading: .*$/m, "heading: Built for every desk"),
    );
    await confirm("pat.example@example.com", "/admin/review/landing/industries");
    expect((await approve("pat.example@example.com", "/admin/review/landing/industries")).status).toBe(303);
    // Meanwhile an administrator changes the same line on the git host itself.
    team.origin("config", "user.name", "Admin");
    team.origin("config", "user.email", "admin@example.com");
    const moved = adminCommit(team, "src/content/landing/industries.yaml", (raw) =>
      raw.replace(/^heading: .*$/m, "heading: Across the industry"),
    );
    const before = state("industries").slice(2);
    const refused = await publish("industries");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(
      /^Not published: main has changed src\/content\/landing\/industries\.yaml since this entry was started, and the two changes overlap\./,
    );
    expect([team.origin("rev-parse", "main"), ...state("industries").slice(2)]).toEqual([moved, ...before]);
  }, 300_000);
});
