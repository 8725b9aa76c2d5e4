/**
 * Nothing lost with the disk (decision 0038): the entries in review, their statuses, drafts, comments
 * and decisions live on the firm's git host, so a studio started from an empty state directory against
 * the same host shows the same board and continues the host's review log (never a new root). While the
 * host is down, the board says which entries it does not have yet, and the studio pushes them once it
 * is back.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPage } from "../../testing/expect-page.ts";
import { listEntries } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { api, editAndSubmit, postForm, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";

let team: Team;
beforeAll(async () => {
  team = await startTeam();
}, 120_000);
afterAll(() => team?.stop(), 60_000);

const board = () => listEntries(team.studio.repo).map((e) => `${e.branch} ${e.status} ${e.head}`);
const hero = "src/content/landing/hero.yaml";

describe("the workflow on the firm's git host", () => {
  it("a studio started from an empty state directory shows the same board, drafts, comments and decisions, and its next event reaches the host", async () => {
    const erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await editAndSubmit(team, erin.context, "hero", (raw) => raw.replace(/^headline: .*$/m, "headline: Settlement for institutions"));
    await editAndSubmit(team, erin.context, "popup", (raw) => raw.replace("get in touch", "write to us"));
    const pat = await signIn(team, "pat.example@example.com", "/admin/review/landing/popup");
    const asked = await postForm(team, pat.page, "/admin/review/landing/popup", {
      decision: "request_changes",
      comment: "Keep “get in touch”.",
    });
    expect(asked.status).toBe(303);
    const before = { board: board(), events: readEvents(team.studio.repo), draft: team.clone("show", `cms/landing/hero:${hero}`) };
    expect(before.board.map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual([
      "cms/landing/hero pending_review",
      "cms/landing/popup draft",
    ]);
    // The host has each entry, its status and the log, as the studio does.
    expect(team.origin("rev-parse", "cms/landing/hero", "cms/landing/popup")).toBe(
      team.clone("rev-parse", "cms/landing/hero", "cms/landing/popup"),
    );
    expect(team.origin("show", "refs/studio/status/cms/landing/popup:status")).toBe("draft");
    expect(team.origin("show", "refs/studio/status/cms/landing/hero:status")).toBe("pending_review");
    const hostLog = team.origin("rev-parse", "studio-log");
    expect(hostLog).toBe(team.clone("rev-parse", "studio-log"));

    await team.restart({ stateDir: join(team.project, "..", "team", "studio-after-the-disk-was-lost") });
    expect(team.studio.repo).toContain("studio-after-the-disk-was-lost");

    expect({ board: board(), events: readEvents(team.studio.repo), draft: team.clone("show", `cms/landing/hero:${hero}`) }).toEqual(before);
    const { context, page } = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await expectPage(page.locator('li[data-entry="cms/landing/hero"]')).toContainText("Landing page: Hero");
    await expectPage(page.locator('li[data-entry="cms/landing/popup"]')).toContainText("Changes requested by Pat Example");
    await expectPage(page.locator('li[data-entry="cms/landing/popup"] blockquote')).toHaveText("Keep “get in touch”.");
    await expectPage(page.locator("[data-not-on-host], [data-log-not-on-host]")).toHaveCount(0);
    // Decap's own board (decap-server's answers) has each entry with its status, and the draft's words.
    for (const [slug, status] of [
      ["hero", "pending_review"],
      ["popup", "draft"],
    ]) {
      const entry = await api(team, context, "unpublishedEntry", { branch: "main", collection: "landing", slug });
      expect([entry.status, entry.body.status]).toEqual([200, status]);
    }
    const draft = await api(team, context, "unpublishedEntryDataFile", {
      branch: "main",
      collection: "landing",
      slug: "hero",
      id: "hero",
      path: hero,
    });
    expect(JSON.stringify(draft.body)).toContain("Settlement for institutions");

    // The next decision reaches the host, after the host's own history: one log, one root.
    const principal = await signIn(team, "pat.example@example.com", "/admin/review/landing/hero");
    const next = await postForm(team, principal.page, "/admin/review/landing/hero", {
      decision: "request_changes",
      comment: "Say who settles.",
    });
    expect(next.status).toBe(303);
    expect(team.origin("rev-parse", "studio-log")).toBe(team.clone("rev-parse", "studio-log"));
    expect(() => team.origin("merge-base", "--is-ancestor", hostLog, "studio-log")).not.toThrow();
    expect(team.origin("rev-list", "--max-parents=0", "studio-log").split("\n")).toHaveLength(1);
    expect(team.origin("show", "studio-log:events.jsonl")).toContain("Say who settles.");
    expect(team.origin("show", "refs/studio/status/cms/landing/hero:status")).toBe("draft");
  }, 600_000);

  it("while the host is down, the board names what it does not have yet, and the studio pushes it once it is back", async () => {
    const erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    const before = team.origin("rev-parse", "cms/landing/popup");
    await team.host.outage();
    try {
      await editAndSubmit(team, erin.context, "popup", (raw) => raw.replace("get in touch", "talk to us"));
      await erin.page.goto(`${team.url}/admin/approvals`);
      await expectPage(erin.page.locator('li[data-entry="cms/landing/popup"]')).toContainText(
        "Not yet on the firm's git host: the studio keeps trying, and nothing is lost meanwhile.",
      );
      await expectPage(erin.page.locator('li[data-entry="cms/landing/hero"][data-not-on-host]')).toHaveCount(0);
      await expectPage(erin.page.locator("[data-log-not-on-host]")).toContainText(
        "1 step of the review log is not yet on the firm's git host",
      );
    } finally {
      await team.host.restore();
    }
    // Tried again on its own (every few seconds, then less often): the board clears once the host has it all.
    await expect
      .poll(
        async () => {
          await erin.page.goto(`${team.url}/admin/approvals`);
          return erin.page.locator("[data-not-on-host], [data-log-not-on-host]").count();
        },
        { timeout: 90_000, interval: 1_000 },
      )
      .toBe(0);
    expect(team.origin("rev-parse", "cms/landing/popup")).not.toBe(before);
    expect(team.origin("rev-parse", "cms/landing/popup")).toBe(team.clone("rev-parse", "cms/landing/popup"));
    expect(team.origin("show", "refs/studio/status/cms/landing/popup:status")).toBe("pending_review");
    expect(team.origin("rev-parse", "studio-log")).toBe(team.clone("rev-parse", "studio-log"));
  }, 300_000);
});
