/**
 * The team studio without seams (issue 49), with an editor, a principal and compliance each signed in
 * through the IdP, in Chromium: each refusal reaches the editor once, in the studio's words (never
 * Decap's "API_ERROR" or a library's field name), a title of punctuation only included, and links only
 * to what exists; the fields a page cannot use are not drawn; a new page's review lists the page's own
 * words and says once that the shared parts are already approved; a refused save leaves no unhandled
 * rejection; an editor discards a draft of their own from Approvals, in one step, and the review log
 * keeps it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { openAdmin, setStatus } from "../../testing/studio/trial-admin.ts";
import { fillNewDisclosure, save, FEE_SCHEDULE } from "../../testing/studio/trial-disclosure.ts";
import { findEntry } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { api, postForm, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";
import { heard, listen, timesShown } from "./voice-support.ts";

let team: Team;
let erin: { context: BrowserContext; page: Page };
let pat: { context: BrowserContext; page: Page };
const cmsBranches = () => team.clone("for-each-ref", "--format=%(refname:short)", "refs/heads/cms/");

beforeAll(async () => {
  team = await startTeam();
  erin = await signIn(team, "erin.editor@example.com", "/admin/");
  await listen(erin.page);
}, 300_000);
afterAll(() => team?.stop(), 60_000);

/**
 * The refusal said once, in the studio's words, in the dock: Decap's toast of it taken away before it is
 * drawn, "API_ERROR" nowhere on screen, and nothing left unhandled in the page.
 */
async function saidOnce(page: Page, sentence: string) {
  // Decap's toast of the refusal, and its rejection of the save, have both come.
  await vi.waitUntil(
    async () => {
      const { toasts, rejections } = await heard(page);
      return toasts.some((t) => t.text.includes(sentence)) && rejections.length > 0;
    },
    { timeout: 30_000, interval: 100 },
  );
  const { toasts, unhandled, pageErrors } = await heard(page);
  expect(toasts.filter((t) => t.shown && /API_ERROR|Failed to persist/.test(t.text))).toEqual([]);
  expect(toasts.find((t) => t.text.includes(sentence))?.shown).toBe(false);
  expect(await timesShown(page, sentence)).toBe(1);
  expect(await page.locator("body").innerText()).not.toContain("API_ERROR");
  expect([unhandled, pageErrors]).toEqual([[], []]);
}

describe("one voice for each refusal", () => {
  it("a title of punctuation only: the studio's sentence, before decap-server sees it, and no link to a review that does not exist", async () => {
    await fillNewDisclosure(erin.page, team.url, { ...FEE_SCHEDULE, title: "!!! ??? *** ///" });
    const sentence = "The title gives no address (it needs letters or digits): change the title.";
    expect(await save(erin.page)).toEqual({ saved: false, refusal: sentence });
    await saidOnce(erin.page, sentence);
    const notice = erin.page.locator('[data-studio-notice^="refused-"]');
    await expectPage(notice).toHaveCount(1);
    await expectPage(notice.getByRole("link")).toHaveCount(0);
    expect(await erin.page.locator("body").innerText()).not.toContain("params.slug");
    expect(cmsBranches()).toBe("");
  }, 180_000);

  it("a title whose address a page has: one sentence naming whose it is", async () => {
    await fillNewDisclosure(erin.page, team.url, { ...FEE_SCHEDULE, title: "Business Continuity" });
    const sentence =
      "The address /business-continuity, made from the title, is taken by Business Continuity Plan Summary: give the page a title of its own.";
    // The admin page asks whether the refused entry is in the workflow before it offers a link to its review: it is not.
    const asked = erin.page.waitForResponse((r) =>
      r.url().includes("/admin/entry-state?collection=disclosures&slug=business-continuity-1"),
    );
    expect(await save(erin.page)).toEqual({ saved: false, refusal: sentence });
    expect(await (await asked).json()).toBeNull();
    await saidOnce(erin.page, sentence);
    await expectPage(erin.page.locator('[data-studio-notice^="refused-"]').getByRole("link")).toHaveCount(0);
    expect(cmsBranches()).toBe("");
  }, 180_000);

  it("a field Decap's own rules refuse: the field says why, and nothing is left unhandled", async () => {
    await fillNewDisclosure(erin.page, team.url, { ...FEE_SCHEDULE, title: "Best Execution", description: "Too short." });
    await erin.page.getByRole("button", { name: "Save", exact: true }).click();
    await expectPage(erin.page.locator('[class*="-ControlErrorsList"] li').first()).toContainText("Description");
    // Decap rejects the refused save with no reason: the rejection came, and the page handled it.
    await vi.waitUntil(async () => (await heard(erin.page)).rejections.length > 0, { timeout: 30_000, interval: 100 });
    const { unhandled, pageErrors } = await heard(erin.page);
    expect([unhandled, pageErrors]).toEqual([[], []]);
    expect(cmsBranches()).toBe("");
  }, 180_000);

  it("what decap-server itself refuses is answered in the studio's words, its own message kept for the log", async () => {
    const answer = await api(team, erin.context, "entriesByFolder", { branch: "main", folder: "src/content/disclosures" });
    expect(answer).toEqual({
      status: 422,
      body: {
        error:
          "The studio could not list the entries: the editor asked for something the studio does not accept. Nothing was changed; reload the page and try again.",
      },
    });
  });
});

describe("only the fields a page can use", () => {
  it("the business continuity summary and a new disclosure have no Withdrawn field; other fields are there", async () => {
    await openAdmin(erin.page, team.url, "/collections/disclosures/entries/business-continuity");
    await expectPage(erin.page.getByLabel("Title", { exact: true })).toHaveValue("Business Continuity Plan Summary");
    await expectPage(erin.page.getByLabel(/^Withdrawn/)).toBeHidden();
    await expectPage(erin.page.getByText(/^Withdrawn/)).toBeHidden();
    await openAdmin(erin.page, team.url, "/collections/disclosures/new", erin.page.getByLabel("Title", { exact: true }));
    await expectPage(erin.page.getByLabel("Last updated", { exact: true })).toBeVisible();
    await expectPage(erin.page.getByLabel(/^Withdrawn/)).toBeHidden();
  }, 180_000);

  it("compliance is told before anything is filled that it reads the entries only", async () => {
    const casey = await signIn(team, "casey.compliance@example.com", "/admin/");
    await openAdmin(casey.page, team.url, "/collections/disclosures/entries/business-continuity");
    await expectPage(casey.page.locator('[data-studio-notice="read-only"]')).toHaveText(
      /^You read the entries here as compliance: saving, changing a status and publishing are for editors and principals/,
    );
    await casey.context.close();
  }, 180_000);
});

describe("the principal reads what is new", () => {
  it("a new page's review lists its own words, and says once that the header, banner and footer are the site's approved shared parts", async () => {
    await fillNewDisclosure(erin.page, team.url, FEE_SCHEDULE);
    expect(await save(erin.page)).toEqual({ saved: true });
    await erin.page.waitForURL(/#\/collections\/disclosures\/entries\/fee-schedule$/);
    // A disclosure that may be withdrawn shows the field.
    await expectPage(erin.page.getByLabel(/^Withdrawn/)).toBeVisible();
    await setStatus(erin.page, "In review");
    await vi.waitUntil(() => findEntry(team.studio.repo, "disclosures", "fee-schedule")?.status === "pending_review", {
      timeout: 30_000,
      interval: 100,
    });
    pat = await signIn(team, "pat.example@example.com", "/admin/review/disclosures/fee-schedule");
    const page = pat.page.locator('[data-page="/fee-schedule"]');
    const own = page.locator("[data-own-words]");
    for (const words of [
      "Page title (browser tab and search results): Fee Schedule | Fictive Markets",
      `Description in search results: ${FEE_SCHEDULE.description}`,
      "Fee Schedule",
      "On this page",
      "Fees for ATS Subscribers",
      "Each executed order is charged a fee per share, billed monthly.",
      "We give subscribers thirty days",
      "Link: Link to section: Changes to Fees: #changes-to-fees",
    ])
      await expectPage(own.locator("p[data-changed]").filter({ hasText: words }).first()).toBeVisible();
    const listed = await own.innerText();
    for (const shared of [
      "Skip to content",
      "We use essential storage",
      "Accept All",
      "Fictive Technologies, Inc.",
      "Terms of Service",
      "Cookie settings",
    ])
      expect(listed, shared).not.toContain(shared);
    await expectPage(page.locator("[data-shared-parts]")).toHaveCount(1);
    await expectPage(page.locator("[data-shared-parts]")).toHaveText(
      "Not listed: the header, the cookie banner, the footer and the skip link, the parts every page of the site shares, already approved. On this page they read word for word as on Business Continuity Plan Summary (/business-continuity).",
    );
    // The index it joins: an edited page lists its own change, and says its shared parts did not change.
    const index = pat.page.locator('[data-page="/disclosures"]');
    await expectPage(index.locator("[data-own-words] ins").filter({ hasText: "Fee Schedule" }).first()).toBeVisible();
    await expectPage(index.locator("[data-shared-parts]")).toHaveText(
      "Not listed: the header, the cookie banner, the footer and the skip link, the parts every page of the site shares. They are unchanged on this page.",
    );
    expect(await index.locator("[data-own-words]").innerText()).not.toContain("We use essential storage");
    // The frame still marks the whole new page.
    await expectPage(
      page.locator("iframe").last().contentFrame().locator("mark").filter({ hasText: "Skip to content" }).first(),
    ).toBeAttached();
  }, 600_000);
});

describe("no leftovers", () => {
  it("an editor discards a draft of their own from Approvals in one step, an odd address included; the review log keeps it", async () => {
    await fillNewDisclosure(erin.page, team.url, { ...FEE_SCHEDULE, title: "../../etc" });
    expect(await save(erin.page)).toEqual({ saved: true });
    const odd = () => findEntry(team.studio.repo, "disclosures", "etc");
    await vi.waitUntil(() => odd() !== undefined, { timeout: 30_000, interval: 100 });
    const { unhandled, pageErrors } = await heard(erin.page);
    expect([unhandled, pageErrors]).toEqual([[], []]);

    // Not Pat's to discard: no button, and a direct post is refused in one sentence.
    await pat.page.goto(`${team.url}/admin/approvals`);
    await expectPage(pat.page.locator('[data-entry="cms/disclosures/etc"]')).toContainText("../../etc");
    await expectPage(pat.page.getByRole("button", { name: /^Discard/ })).toHaveCount(0);
    const refused = await postForm(team, pat.page, "/admin/approvals/discard", { collection: "disclosures", slug: "etc" });
    expect([refused.status, refused.location]).toEqual([303, "/admin/approvals"]);
    await pat.page.goto(`${team.url}/admin/approvals`);
    await expectPage(pat.page.getByRole("alert")).toHaveText("Only someone who edited ../../etc can discard it.");
    expect(odd()).toBeDefined();

    await erin.page.goto(`${team.url}/admin/approvals`);
    const drafts = erin.page.locator("section").filter({ has: erin.page.getByRole("heading", { name: "Drafts" }) });
    await expectPage(drafts.locator('[data-entry="cms/disclosures/etc"]')).toContainText("../../etc");
    await erin.page.getByRole("button", { name: "Discard ../../etc" }).click();
    await expectPage(erin.page.getByRole("status")).toHaveText(
      "Discarded ../../etc: its draft is no longer in the workflow, and the review log keeps its history.",
    );
    expect(odd()).toBeUndefined();
    expect(cmsBranches()).toBe("cms/disclosures/fee-schedule");
    await expectPage(erin.page.locator('[data-entry="cms/disclosures/etc"]')).toHaveCount(0);
    const discarded = readEvents(team.studio.repo).filter((e) => e.event === "discarded");
    expect(discarded).toEqual([
      expect.objectContaining({
        entry: { collection: "disclosures", slug: "etc", branch: "cms/disclosures/etc", name: "../../etc" },
        actor: expect.objectContaining({ name: "Erin Editor", role: "editor" }),
      }),
    ]);
    // Pushed to the firm's git host with the rest of the log.
    expect(team.origin("show", "studio-log:events.jsonl")).toContain('"event":"discarded"');
  }, 300_000);
});
