/**
 * The studio's own pages to the site's standard (issue 36), in Chromium: the review by keyboard, from the
 * top to the end, reaching the decision, the comment, "Publish at", the phone/desktop switch and the changed words
 * without entering a frame, every stop drawn and on screen; its frames named, out of the Tab order,
 * scrollable by pointer, and whole lines at 375 px (decision 0029); axe with no violation at 1440, 375
 * and 320 × 256 for each role (the board's "Reviews due" and a page's review included); a decision's outcome announced and focused; a refused field named at the
 * field; the README's picture of the review with its frames drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { framePainted, reviewReady, reviewShot } from "../../testing/studio/trial-admin.ts";
import { framedPageAxe, framePicture, keyboardWalk, SIZES, studioAxe, walkProblems } from "./a11y-support.ts";
import { answerSignIn, confirmItsYou, editAndSubmit, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";

let team: Team;
const people: Record<string, { context: BrowserContext; page: Page }> = {};
const REVIEW = "/admin/review/landing/hero";
const PAT = "pat.example@example.com";
const page = (email: string) => people[email]!.page;

beforeAll(async () => {
  team = await startTeam();
  for (const email of ["erin.editor@example.com", PAT, "casey.compliance@example.com"]) people[email] = await signIn(team, email);
  // The same edit as the other studio suites': the same tree, so its preview build is made once per run.
  await editAndSubmit(team, people["erin.editor@example.com"]!.context, "hero", (raw) =>
    raw.replace(/^headline: .*$/m, "headline: Settlement for institutions"),
  );
  await confirmItsYou(team, page(PAT), PAT, REVIEW);
}, 400_000);
afterAll(() => team?.stop(), 60_000);

const open = async (email: string, path: string, size: (typeof SIZES)[number] = SIZES[0]) => {
  const p = page(email);
  await p.setViewportSize(size);
  await p.goto(`${team.url}${path}`);
  await reviewReady(p);
  return p;
};

describe("the review by keyboard", () => {
  it.each([SIZES[0], SIZES[2]])(
    "at $name: Tab reaches the decision, the comment, the switch and the changed words, never a frame, every stop drawn",
    async (size) => {
      const pat = await open(PAT, REVIEW, size);
      const stops = await keyboardWalk(pat);
      expect(walkProblems(stops)).toEqual([]);
      const names = stops.map((s) => `${s.tag} ${s.name}`);
      for (const wanted of [
        /^textarea Comment \(optional/,
        /^input Date and time in America\/New_York$/,
        /^select If the time happens twice/,
        /^input Hold it if late/,
        /^button Approve 1 page$/,
        /^textarea Comment for the editor/,
        /^button Request changes$/,
        /^button Reject$/,
        /^a Show at phone width$/,
        /^div The changed words$/,
      ])
        expect(names, String(wanted)).toContainEqual(expect.stringMatching(wanted));
    },
    120_000,
  );

  it("the frames: named for what they show, nothing in them takes focus or moves, scrollable by pointer", async () => {
    const pat = await open(PAT, REVIEW);
    const frames = pat.locator("iframe");
    await expectPage(frames).toHaveCount(2);
    expect(await frames.evaluateAll((all) => all.map((f) => [(f as HTMLIFrameElement).title, (f as HTMLIFrameElement).tabIndex]))).toEqual([
      ["Landing page, approved", -1],
      ["Landing page, with this entry's changes", -1],
    ]);
    const inside = frames.nth(1).contentFrame();
    await inside.locator("mark").first().waitFor();
    // A picture of each page: the site's status dot is there, without its pulse; nothing takes focus or moves.
    for (const frame of [frames.nth(0).contentFrame(), inside]) {
      await expectPage(frame.locator(".status-dot")).toHaveCount(1);
      expect(await framePicture(frame)).toEqual({ focusable: 0, moving: 0 });
    }
    const scrolled = () => inside.locator("body").evaluate(() => window.scrollY);
    const before = await scrolled();
    await frames.nth(1).scrollIntoViewIfNeeded();
    const box = (await frames.nth(1).boundingBox())!;
    await pat.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await pat.mouse.wheel(0, 400);
    await expect.poll(scrolled).toBeGreaterThan(before);
  });

  it.each([SIZES[1], SIZES[0]])("the phone view at $name: whole lines, nothing to scroll sideways", async (size) => {
    const pat = await open(PAT, `${REVIEW}?view=phone`, size);
    for (const frame of await pat.locator(".frame-box").all()) {
      await frame.locator("iframe").contentFrame().locator("body").waitFor();
      const fit = await frame.evaluate((box) => {
        const iframe = box.querySelector("iframe")!;
        const [outer, inner] = [box.getBoundingClientRect(), iframe.getBoundingClientRect()];
        return {
          scrollsSideways: box.scrollWidth > box.clientWidth,
          withinTheBox: inner.right <= outer.right + 0.5,
          laidOutAt: iframe.offsetWidth,
        };
      });
      expect(fit).toEqual({ scrollsSideways: false, withinTheBox: true, laidOutAt: 375 });
      // The page inside is as wide as its phone viewport: no line runs off its right edge.
      const page = frame.locator("iframe").contentFrame().locator("html");
      expect(await page.evaluate((html) => html.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });

  it("the README's picture of the review shows both frames drawn", async () => {
    const pat = await open(PAT, REVIEW);
    const shot = await reviewShot(pat);
    const frames = await pat.locator("iframe").all();
    expect(frames).toHaveLength(2);
    for (const frame of frames) {
      const box = (await frame.boundingBox())!;
      expect(box.y + box.height, "the frame is in the window").toBeLessThan(SIZES[0].height);
      // A blank frame is white; a drawn page has the site's dark hero, its text and the marks.
      expect(await framePainted(shot, box, SIZES[0].height), `${await frame.getAttribute("title")} drawn`).toBe(true);
    }
  });
});

describe("axe on the studio's own pages", () => {
  const pages: Array<[string, string, string]> = [
    ["the principal's approvals", PAT, "/admin/approvals"],
    ["the principal's review", PAT, REVIEW],
    ["the principal's review at phone width", PAT, `${REVIEW}?view=phone`],
    ["the editor's review", "erin.editor@example.com", REVIEW],
    ["compliance's approvals", "casey.compliance@example.com", "/admin/approvals"],
    ["compliance's review", "casey.compliance@example.com", REVIEW],
    // Issue 54: a page's review, with the form (the principal is signed in afresh) and with the edit offered instead.
    ["the principal's review of a page", PAT, "/admin/pages/review?page=%2Frisk-disclosures"],
    ["the editor's review of a page", "erin.editor@example.com", "/admin/pages/review?page=%2Frisk-disclosures"],
  ];
  for (const size of SIZES)
    it.each(pages)(
      `%s at ${size.name}`,
      async (_, who, path) => {
        const shown = await open(who, path, size);
        expect(await studioAxe(shown)).toEqual([]);
      },
      120_000,
    );

  it("what the frames show, opened alone: each built page with its marks", async () => {
    const pat = await open(PAT, REVIEW);
    const sources = await pat.locator("iframe").evaluateAll((frames) => frames.map((f) => (f as HTMLIFrameElement).src.split("#")[0]!));
    for (const src of sources) expect(await framedPageAxe(pat, src), src).toEqual([]);
  });

  it.each(SIZES)(
    "signed out, and a sign-in refused, at $name",
    async (size) => {
      const context = await team.browser.newContext({ viewport: size });
      const outsider = await context.newPage();
      await outsider.goto(`${team.url}/auth/signed-out`);
      expect(await studioAxe(outsider)).toEqual([]);
      await outsider.goto(`${team.url}/admin/approvals`);
      await answerSignIn(outsider, team.person("olive.outsider@example.com"));
      await expectPage(outsider.getByRole("heading", { name: "Sign-in refused" })).toBeVisible();
      expect(await studioAxe(outsider)).toEqual([]);
      await context.close();
    },
    120_000,
  );
});

describe("the decision, said and focused", () => {
  it("a comment of spaces is refused at the field: tied to it, invalid, focused, and axe-clean", async () => {
    const pat = await open(PAT, REVIEW);
    await pat.getByLabel(/^Comment for the editor/).fill("   ");
    await pat.getByRole("button", { name: "Request changes" }).click();
    await reviewReady(pat);
    const field = pat.getByLabel(/^Comment for the editor/);
    await expectPage(field).toBeFocused();
    await expectPage(field).toHaveAttribute("aria-invalid", "true");
    await expectPage(field).toHaveAccessibleDescription(/^Say what should change/);
    expect(await studioAxe(pat)).toEqual([]);
  });

  it("the outcome is a status that takes focus", async () => {
    const pat = await open(PAT, REVIEW);
    await pat.getByLabel(/^Comment for the editor/).fill("Say who settles: the ATS, not the firm.");
    await pat.getByRole("button", { name: "Request changes" }).click();
    await reviewReady(pat);
    const outcome = pat.getByRole("status");
    await expectPage(outcome).toHaveText("Changes requested on Landing page: Hero: the editor sees your comment.");
    await expectPage(outcome).toBeFocused();
    expect(await studioAxe(pat)).toEqual([]);
  });
});
