/**
 * Publishing at the moment a principal approved (issue 56), in the team studio whose process runs in
 * Asia/Tokyo while the firm's zone is America/New_York. One test waits for a real moment: the host's
 * `main` is unchanged until it, then has the entry in one merge within 10 s of it. The others move the
 * studio's clock (an injected one, skewed): a moment missed while the studio was down is published
 * once at its next start, late and said so, or held when the principal asked; an edit clears a schedule; another entry published first
 * makes the gate refuse at the moment, said on the board. Refusals and an editor's forged request: 403.
 */
// Before anything reads the clock: the studio's process in another zone than the firm's.
process.env.TZ = "Asia/Tokyo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPage } from "../../testing/expect-page.ts";
import { localValue } from "../../lib/zoned-time.ts";
import { readEvents, type ReviewEvent } from "../../studio/workflow/log.ts";
import { api, confirmItsYou, editAndSubmit, postForm, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";
import { reviewReady } from "../../testing/studio/trial-admin.ts";
import { studioAxe } from "./a11y-support.ts";
import type { BrowserContext, Page } from "@playwright/test";

const NY = "America/New_York";
const HOUR = 3_600_000;
let skew = 0;
const clock = () => new Date(Date.now() + skew);
let team: Team;
let pat: { context: BrowserContext; page: Page };
let erin: { context: BrowserContext; page: Page };

beforeAll(async () => {
  team = await startTeam({ clock });
  erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
  pat = await signIn(team, "pat.example@example.com", "/admin/approvals");
});
afterAll(() => team?.stop(), 60_000);

const edit = (slug: string, from: RegExp | string, to: string) => editAndSubmit(team, erin.context, slug, (raw) => raw.replace(from, to));
const review = (slug: string) => `/admin/review/landing/${slug}`;
/** The schedule the host keeps for an entry (its status ref's `schedule`), or "none". */
const hostSchedule = (slug: string) => {
  try {
    return JSON.parse(team.origin("cat-file", "blob", `refs/studio/status/cms/landing/${slug}:schedule`)) as { at: string };
  } catch {
    return "none";
  }
};
/** The review log as the host has it (pushed in the same atomic push as a publish's main). */
const hostEvents = (branch: string) =>
  team
    .origin("show", "studio-log:events.jsonl")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReviewEvent)
    .filter((e) => e.entry.branch === branch);
/** A principal's approval with "Publish at", posted as the review's form posts it. */
async function approveAt(slug: string, at: Date, extra: Record<string, string> = {}) {
  await confirmItsYou(team, pat.page, "pat.example@example.com", review(slug));
  return postForm(team, pat.page, review(slug), { decision: "approve", comment: "", publishAt: localValue(at, NY, true), ...extra });
}

describe("scheduled publishing", () => {
  it("refuses a time past, skipped or repeated in one sentence, and an editor's schedule with 403", async () => {
    expect(new Date(2027, 0, 1).getTimezoneOffset()).toBe(-540);
    await edit("hero", /^pageTitle: .*$/m, "pageTitle: Institutional Digital Asset Trading, on the hour");
    await confirmItsYou(team, pat.page, "pat.example@example.com", review("hero"));
    const head = team.clone("rev-parse", "cms/landing/hero");
    const refused = async (publishAt: string) => {
      const answer = await postForm(team, pat.page, review("hero"), { decision: "approve", comment: "", publishAt });
      return [answer.status, /<p class="field-error" id="publish-at-approve-error">([^<]*)<\/p>/.exec(answer.text)?.[1]];
    };
    expect(await refused(localValue(new Date(clock().getTime() - 60_000), NY))).toEqual([
      403,
      expect.stringMatching(/^That moment has passed \(.* America\/New_York \(.* UTC\)\): choose a time ahead/),
    ]);
    expect(await refused("2027-03-14T02:30")).toEqual([
      403,
      "There is no 02:30 on 2027-03-14 in America/New_York: the clocks go forward that night, so that time is skipped. Choose another time.",
    ]);
    expect(await refused("2027-11-07T01:30")).toEqual([
      403,
      expect.stringContaining("01:30 on 2027-11-07 happens twice in America/New_York, as the clocks go back that night: choose the first"),
    ]);
    // Nothing was approved.
    expect(team.clone("rev-parse", "cms/landing/hero")).toBe(head);

    // The editor, forging the principal's forms: refused before anything else.
    await erin.page.goto(`${team.url}${review("hero")}`);
    await reviewReady(erin.page);
    const token = await erin.page.locator('input[name="_csrf"]').first().inputValue();
    const forged = { head, comment: "", publishAt: "2027-03-01T09:30" };
    expect((await postForm(team, erin.page, review("hero"), { decision: "approve", ...forged }, token)).status).toBe(403);
    for (const action of ["move", "cancel"])
      expect((await postForm(team, erin.page, `${review("hero")}/schedule`, { action, ...forged }, token)).status).toBe(403);
    expect(team.clone("rev-parse", "cms/landing/hero")).toBe(head);
  });

  it("publishes at the moment, in one merge within 10 s, and the board and the log say who scheduled it", async () => {
    const before = team.origin("rev-parse", "main");
    // In the review, as a principal does it: an hour ahead, in the firm's zone.
    await confirmItsYou(team, pat.page, "pat.example@example.com", review("hero"));
    const inAnHour = new Date(Math.ceil((clock().getTime() + HOUR) / 60_000) * 60_000);
    await pat.page.getByLabel("Date and time in America/New_York").first().fill(localValue(inAnHour, NY));
    await pat.page.getByRole("button", { name: "Approve 1 page" }).click();
    await expectPage(pat.page.locator("[data-scheduled]")).toContainText(/^Scheduled for .* America\/New_York \(.* UTC\) by Pat Example/);
    // The gate runs as the schedule is set: the board shows its answer once it has one.
    const line = pat.page.locator('li[data-entry="cms/landing/hero"] p.schedule');
    await expect
      .poll(async () => (await pat.page.goto(`${team.url}/admin/approvals`), await line.textContent()), { timeout: 60_000 })
      .toContain("The approval gate passed against the host's main");
    // The UTC time carries its own day when that is another than New York's (lib/zoned-time.ts): an hour ahead of
    // 23:00–04:00 UTC, it is.
    expect(await line.textContent()).toMatch(
      /^Scheduled for \d+ \w{3} \d{4}, \d\d:\d\d America\/New_York \((\d+ \w{3} \d{4}, )?\d\d:\d\d UTC\) by Pat Example\./,
    );
    /** axe on the page at 1440 and at 375 px. */
    const axeAtBoth = async () => {
      const found = [];
      for (const width of [1440, 375]) {
        await pat.page.setViewportSize({ width, height: width < 600 ? 812 : 900 });
        found.push(...(await studioAxe(pat.page)));
      }
      return found;
    };
    expect(await axeAtBoth()).toEqual([]);
    await expect.poll(() => hostSchedule("hero"), { timeout: 30_000 }).toMatchObject({ at: inAnHour.toISOString() });

    // Moved to a few seconds ahead: the one real moment this suite waits for.
    await pat.page.goto(`${team.url}${review("hero")}`);
    await reviewReady(pat.page);
    expect(await axeAtBoth()).toEqual([]);
    const moment = new Date(Math.ceil((Date.now() + 8000) / 1000) * 1000);
    const moved = await postForm(team, pat.page, `${review("hero")}/schedule`, { action: "move", publishAt: localValue(moment, NY, true) });
    expect(moved.status).toBe(303);
    const head = team.clone("rev-parse", "cms/landing/hero");
    // The host's main, watched from now: unchanged until the moment, then the merge.
    let early = "";
    await expect
      .poll(
        () => {
          const main = team.origin("rev-parse", "main");
          if (main !== before && Date.now() < moment.getTime()) early = main;
          return main;
        },
        { timeout: 60_000, interval: 200 },
      )
      .not.toBe(before);
    expect(early).toBe("");
    const merge = team.origin("log", "-1", "--format=%H %P%n%cI%n%B", "main").split("\n");
    const [, ...parents] = merge[0]!.split(" ");
    expect(parents).toEqual([before, head]);
    const wentLive = Date.parse(merge[1]!);
    expect(wentLive - moment.getTime()).toBeGreaterThanOrEqual(0);
    expect(wentLive - moment.getTime()).toBeLessThanOrEqual(10_000);
    expect(merge.join("\n")).toContain("Published at the moment scheduled by Pat Example");
    const published = hostEvents("cms/landing/hero");
    expect(published.map((e) => e.event)).toEqual(["submitted", "approved", "scheduled", "published"]);
    expect(published[1]!.schedule).toEqual({ at: inAnHour.toISOString(), timeZone: NY, holdIfLate: false });
    expect(published[3]).toMatchObject({
      actor: { name: "Pat Example", role: "principal" },
      scheduled: { at: moment.toISOString(), timeZone: NY },
    });
  }, 240_000);

  it("publishes once at the next start a moment missed while the studio was down, says how late, and holds one asked to", async () => {
    // Two entries for moments a few minutes ahead, one of them "hold it if late".
    await edit("popup", "get in touch", "write to us");
    const soon = new Date(Math.ceil((clock().getTime() + 4 * 60_000) / 1000) * 1000);
    expect((await approveAt("popup", soon)).status).toBe(303);
    await edit("status", /^unconfigured: .*$/m, "unconfigured: This site does not report the status of the platform.");
    expect((await approveAt("status", soon, { holdIfLate: "1" })).status).toBe(303);
    await expect
      .poll(() => [hostSchedule("popup"), hostSchedule("status")], { timeout: 30_000 })
      .toMatchObject([{ at: soon.toISOString() }, { at: soon.toISOString(), holdIfLate: true }]);
    const before = team.origin("rev-parse", "main");
    // Stopped before the moment, started two minutes after it.
    await team.restart({ whileStopped: () => (skew += 6 * 60_000) });
    await expect.poll(() => team.origin("rev-parse", "main"), { timeout: 60_000 }).not.toBe(before);
    const published = hostEvents("cms/landing/popup").filter((e) => e.event === "published");
    expect(published).toHaveLength(1);
    expect(published[0]!.scheduled!.lateMs).toBeGreaterThanOrEqual(2 * 60_000);
    // The one held: nothing of it on main, the board and the log say why.
    await expect.poll(() => hostSchedule("status"), { timeout: 30_000 }).toMatchObject({ outcome: { kind: "held" } });
    expect(team.origin("log", "--format=%s", "main")).not.toContain("Status dot");
    expect(hostEvents("cms/landing/status").at(-1)).toMatchObject({ event: "schedule_held", actor: { name: "Pat Example" } });
    // Started again: the host's main has it and its schedule is gone, so nothing is published again.
    const after = team.origin("rev-parse", "main");
    await team.restart();
    expect([team.origin("rev-parse", "main"), hostSchedule("popup")]).toEqual([after, "none"]);
    expect(hostEvents("cms/landing/popup").filter((e) => e.event === "published")).toHaveLength(1);
    // Sessions end with the process: everyone signs in again.
    pat = await signIn(team, "pat.example@example.com", "/admin/approvals");
    erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await expectPage(pat.page.locator("main")).toContainText(/Published as scheduled by Pat Example .* \d+ min \d+ s late/);
    await expectPage(pat.page.locator('li[data-entry="cms/landing/status"] [data-schedule-state]')).toHaveText(
      /^Held: it could not be published at .* and Pat Example chose to hold it if late \(\d+ min \d+ s late\)\./,
    );
    // The clock back: a principal's sign-in is fresh by the IdP's real time.
    skew -= 6 * 60_000;
  }, 240_000);

  it("clears the schedule on an edit, and says so to the editor before it", async () => {
    await edit("features", /^heading: .*$/m, "heading: Infrastructure for regulated institutions");
    const moment = new Date(Math.ceil((clock().getTime() + HOUR) / 1000) * 1000);
    expect((await approveAt("features", moment)).status).toBe(303);
    await expect.poll(() => hostSchedule("features"), { timeout: 30_000 }).toMatchObject({ at: moment.toISOString() });
    const state = (await (await erin.context.request.get(`${team.url}/admin/entry-state?collection=landing&slug=features`)).json()) as {
      schedule: string;
    };
    expect(state.schedule).toMatch(/^Scheduled for .* by Pat Example\. Saving a change clears the schedule and the approval/);
    const saved = await api(team, erin.context, "persistEntry", {
      branch: "main",
      dataFiles: [
        {
          path: "src/content/landing/features.yaml",
          slug: "features",
          raw: team.clone("show", "cms/landing/features:src/content/landing/features.yaml").replace("for regulated", "for the regulated"),
        },
      ],
      assets: [],
      options: { collectionName: "landing", commitMessage: "Update Landing page “features”", useWorkflow: true, status: "draft" },
    });
    expect(saved.status).toBe(200);
    await expect.poll(() => hostSchedule("features"), { timeout: 30_000 }).toBe("none");
    // The moment passes: nothing is published.
    const before = team.origin("rev-parse", "main");
    skew += 2 * HOUR;
    await pat.page.goto(`${team.url}/admin/approvals`);
    await expectPage(pat.page.locator('li[data-entry="cms/landing/features"]')).not.toContainText("Scheduled for");
    expect(team.origin("rev-parse", "main")).toBe(before);
    // The clock back: a principal's sign-in is fresh by the IdP's real time.
    skew -= 2 * HOUR;
  }, 240_000);

  it("publishes nothing at the moment when another entry changed the page first, and the board says why", async () => {
    await edit("industries", /^heading: .*$/m, "heading: Impact across every industry");
    await edit("contact", /^heading: .*$/m, "heading: Talk to our institutional desk");
    const moment = new Date(Math.ceil((clock().getTime() + HOUR) / 1000) * 1000);
    expect((await approveAt("industries", moment)).status).toBe(303);
    await confirmItsYou(team, pat.page, "pat.example@example.com", review("contact"));
    expect((await postForm(team, pat.page, review("contact"), { decision: "approve", comment: "" })).status).toBe(303);
    expect(
      (await api(team, erin.context, "publishUnpublishedEntry", { branch: "main", collection: "landing", slug: "contact" })).status,
    ).toBe(200);
    const before = team.origin("rev-parse", "main");
    skew += HOUR;
    await expect.poll(() => hostSchedule("industries"), { timeout: 60_000 }).toMatchObject({ outcome: { kind: "refused" } });
    expect(team.origin("rev-parse", "main")).toBe(before);
    await pat.page.goto(`${team.url}/admin/approvals`);
    await expectPage(pat.page.locator('li[data-entry="cms/landing/industries"] [data-schedule-state]')).toHaveText(
      /^Scheduled, needs approval again: Not published: /,
    );
    const refused = readEvents(team.studio.repo).filter((e) => e.event === "schedule_refused");
    expect(hostEvents("cms/landing/industries").at(-1)).toMatchObject({ event: "schedule_refused" });
    expect(refused).toMatchObject([{ entry: { branch: "cms/landing/industries" }, actor: { name: "Pat Example" } }]);
    skew -= HOUR;
  }, 240_000);
});
