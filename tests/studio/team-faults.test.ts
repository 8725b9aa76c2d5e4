/**
 * Faults of the parts the team studio talks to, each stopped and started under it on loopback, and what
 * people read then: one sentence naming the part ("the sign-in service", "the firm's git host", "the
 * studio's editing service", the records store), never an internal address, a socket path or an error
 * code, and nothing left half-done. The sign-in service (the demo IdP) down at sign-in, at the studio's
 * start and during the code exchange; the git host down at publish; decap-server dying; the records
 * store unreachable.
 */
import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { osFreePort } from "../../lib/ports.ts";
import { findEntry } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import {
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
const SIGN_IN_DOWN =
  "The sign-in service cannot be reached just now, so the studio cannot sign you in. Try again in a few minutes; if it goes on, tell the studio's administrator.";
/** What a page or an answer must never show: addresses, socket paths, error codes. */
const INTERNALS = /127\.0\.0\.1|localhost:\d|\/tmp\/|\.sock\b|ECONN|ENOENT|EACCES|fetch failed|fatal:/;

beforeAll(async () => {
  team = await startTeam();
  for (const email of ["erin.editor@example.com", "pat.example@example.com"]) people[email] = await signIn(team, email, "/admin/approvals");
}, 300_000);
afterAll(() => team?.stop(), 60_000);

/** A page's visible text, which must say `sentence` and nothing internal. */
async function saysOnly(page: Page, sentence: string) {
  await expectPage(page.getByRole("alert")).toHaveText(sentence);
  expect(await page.locator("body").innerText()).not.toMatch(INTERNALS);
}

describe("the sign-in service down", () => {
  it("a new sign-in reads one sentence (503) and stays on the studio; people signed in keep working; once it is back, sign-in works", async () => {
    const context = await team.browser.newContext();
    const page = await context.newPage();
    await team.idp.outage();
    try {
      const answer = await page.goto(`${team.url}/admin/`);
      expect(answer?.status()).toBe(503);
      expect(new URL(page.url()).origin).toBe(team.url);
      await expectPage(page.getByRole("heading", { level: 1 })).toHaveText("Sign-in unavailable");
      await saysOnly(page, SIGN_IN_DOWN);
      // Erin, signed in before, keeps working: the board, and the git API.
      const erin = people["erin.editor@example.com"]!;
      await erin.page.goto(`${team.url}/admin/approvals`);
      await expectPage(erin.page.getByRole("heading", { level: 1 })).toHaveText("Approvals");
      expect((await api(team, erin.context, "unpublishedEntries", { branch: "main" })).status).toBe(200);
    } finally {
      await team.idp.restore();
    }
    await page.getByRole("link", { name: "Try again" }).click();
    await answerSignIn(page, team.person("erin.editor@example.com"));
    await page.waitForURL(`${team.url}/admin/`, { timeout: 120_000 });
    expect(await (await context.request.get(`${team.url}/admin/session`)).json()).toMatchObject({ name: "Erin Editor" });
    await context.close();
  }, 180_000);

  it("the sign-in service failing during the code exchange: the same sentence (503), and the next sign-in works", async () => {
    const context = await team.browser.newContext();
    // The sign-in walked as the browser walks it, one redirect at a time, up to the IdP's redirect back with the code.
    const step = async (url: string, form?: Record<string, string>) => {
      const answer = await (form ? context.request.post(url, { form, maxRedirects: 0 }) : context.request.get(url, { maxRedirects: 0 }));
      expect(answer.status(), url).toBe(303);
      return new URL(answer.headers().location!, url).href;
    };
    const pat = team.person("pat.example@example.com");
    const authorize = await step(`${team.url}/auth/login?return=/admin/approvals`);
    const form = await step(authorize);
    const resume = await step(`${form}/login`, { login: pat.email, password: pat.password });
    const callback = await step(resume);
    expect(new URL(callback).pathname).toBe("/auth/callback");
    // The IdP has sent the browser back with its code, and stops before the studio asks it for the tokens.
    await team.idp.outage();
    const page = await context.newPage();
    try {
      const answer = await page.goto(callback);
      expect(answer?.status()).toBe(503);
      await expectPage(page.getByRole("heading", { level: 1 })).toHaveText("Sign-in unavailable");
      await saysOnly(page, SIGN_IN_DOWN);
      expect((await context.request.get(`${team.url}/admin/session`)).status()).toBe(401);
    } finally {
      await team.idp.restore();
    }
    await page.getByRole("link", { name: "Try again" }).click();
    // The IdP kept its own session: it sends Pat straight back, signed in.
    await page.waitForURL(`${team.url}/admin/`, { timeout: 120_000 });
    expect(await (await context.request.get(`${team.url}/admin/session`)).json()).toMatchObject({ name: "Pat Example" });
    await context.close();
  }, 180_000);

  it("a studio started while it is down starts, and answers that sentence until it is back, then signs people in without a restart", async () => {
    await team.idp.outage();
    try {
      await team.restart();
      for (let asked = 0; asked < 2; asked++) {
        const answer = await fetch(`${team.url}/auth/login?return=/admin/approvals`, { redirect: "manual" });
        expect(answer.status).toBe(503);
        const text = await answer.text();
        expect(text).toContain("The sign-in service cannot be reached just now");
        expect(text).not.toMatch(INTERNALS);
      }
    } finally {
      await team.idp.restore();
    }
    // The sessions ended with the restart: everyone signs in again, through the IdP, now that it answers.
    for (const email of Object.keys(people)) {
      await people[email]!.context.close();
      people[email] = await signIn(team, email, "/admin/approvals");
    }
  }, 240_000);
});

describe("the firm's git host down at publish", () => {
  const publish = () =>
    api(team, people["erin.editor@example.com"]!.context, "publishUnpublishedEntry", {
      branch: "main",
      collection: "landing",
      slug: "hero",
    });

  it("the approval stays, the entry stays Ready, the publisher reads one sentence; once it is back, one publish puts exactly one merge on main", async () => {
    await editAndSubmit(team, people["erin.editor@example.com"]!.context, "hero", (raw) =>
      raw.replace(/^headline: .*$/m, "headline: Settlement for institutions"),
    );
    await confirmItsYou(team, people["pat.example@example.com"]!.page, "pat.example@example.com", "/admin/review/landing/hero");
    const approved = await postForm(team, people["pat.example@example.com"]!.page, "/admin/review/landing/hero", {
      decision: "approve",
      comment: "",
    });
    expect(approved.status).toBe(303);
    const main = team.origin("rev-parse", "main");
    const before = findEntry(team.studio.repo, "landing", "hero");
    expect(before?.status).toBe("pending_publish");

    await team.host.outage();
    try {
      const refused = await publish();
      expect(refused).toEqual({
        status: 422,
        body: { error: "Not published: the firm's git host could not be reached; nothing changed. Publish again once it answers." },
      });
      expect(findEntry(team.studio.repo, "landing", "hero")).toEqual(before);
      expect(readEvents(team.studio.repo).filter((e) => e.event === "approved")).toHaveLength(1);
      expect(team.origin("rev-parse", "main")).toBe(main);
    } finally {
      await team.host.restore();
    }
    expect((await publish()).status).toBe(200);
    expect(team.origin("rev-list", "--merges", `${main}..main`).split("\n")).toHaveLength(1);
    expect(team.origin("show", "main:src/content/landing/hero.yaml")).toContain("headline: Settlement for institutions");
    const published = team
      .origin("show", "studio-log:events.jsonl")
      .split("\n")
      .filter((line) => line.includes('"event":"published"'));
    expect(published).toHaveLength(1);
    expect(findEntry(team.studio.repo, "landing", "hero")).toBeUndefined();
  }, 400_000);
});

describe("decap-server dying", () => {
  const call = () => api(team, people["erin.editor@example.com"]!.context, "unpublishedEntries", { branch: "main" });

  it("is noticed and started again: a call meanwhile waits for it and is answered", async () => {
    const before = team.studio.decap.process.pid;
    process.kill(before!, "SIGKILL");
    const answer = await call();
    expect(answer.status).toBe(200);
    expect(team.studio.decap.process.pid).not.toBe(before);
  }, 120_000);

  it("while it cannot be started again, calls get one sentence (503) without its socket; then it is back", async () => {
    // Its private folder gone, decap-server cannot listen: each start fails until the folder is there again.
    const folder = dirname(team.studio.decap.socket);
    rmSync(folder, { recursive: true, force: true });
    process.kill(team.studio.decap.process.pid!, "SIGKILL");
    try {
      const answer = await call();
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe(
        "The studio's editing service stopped and is starting again: nothing was changed; try again in a moment. If it goes on, tell the studio's administrator.",
      );
      expect(JSON.stringify(answer.body)).not.toMatch(INTERNALS);
    } finally {
      mkdirSync(folder, { mode: 0o700 });
    }
    await expect.poll(async () => (await call()).status, { timeout: 90_000, interval: 1_000 }).toBe(200);
  }, 180_000);
});

describe("the records store unreachable", () => {
  it("the Records say which part cannot be reached (503), without its address", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      ARCHIVE_STORE: "s3://firm-records/site",
      AWS_ENDPOINT_URL: `http://127.0.0.1:${await osFreePort()}`,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "studio-test",
      AWS_SECRET_ACCESS_KEY: "studio-test-secret",
    });
    try {
      await team.restart();
      const casey = await signIn(team, "casey.compliance@example.com", "/admin/approvals");
      const answer = await casey.page.goto(`${team.url}/admin/records`);
      expect(answer?.status()).toBe(503);
      await saysOnly(
        casey.page,
        "The records store (s3://firm-records/site) cannot be reached just now, so the records cannot be shown. Try again in a few minutes; if it goes on, tell the studio's administrator.",
      );
      await casey.context.close();
    } finally {
      process.env = saved;
    }
  }, 240_000);
});
