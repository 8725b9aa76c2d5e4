/**
 * The studio killed (SIGKILL to its process group, as systemd or the kernel would) at three points of a
 * publish, then started again: before the git host took the push, after it took it (the studio never
 * heard back), and in the studio's own fast-forward of `main` (git holding the clone's index lock). Each
 * time `main` on the host and the board agree: an entry the host has is shown as published and never
 * offered again, one the host does not have stays Ready and publishes once; the ledger names the
 * approver once, the review log says "published" once; a stale lock is cleared at start.
 *
 * The kill points are found by waiting for real events, no test hook in the studio: hooks on the git
 * host (pre-receive: the push arrived and waits; post-receive: the host has updated its refs and the
 * studio waits for its answer) and a smudge filter in the studio's clone (git is writing the work tree
 * of the fast-forward, the index locked).
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPage } from "../../testing/expect-page.ts";
import { api, confirmItsYou, editAndSubmit, postForm, signIn } from "../../testing/studio/team-support.ts";
import { startStudioProcess, type StudioProcess } from "./studio-process.ts";

let studio: StudioProcess;
beforeAll(async () => {
  studio = await startStudioProcess();
}, 180_000);
afterAll(() => studio?.stop(), 60_000);

const ERIN = "erin.editor@example.com";
const PAT = "pat.example@example.com";

/** A file in the host's bare repository (its hooks, the markers they leave). */
const bare = (...path: string[]) => join(studio.host.bare, ...path);

/** Waits until `file` exists: the state a kill point needs. */
async function arrived(file: string) {
  await expect.poll(() => existsSync(file), { timeout: 180_000, interval: 100 }).toBe(true);
}

type Hook = "pre-receive" | "post-receive";

/**
 * A hook on the host that holds a push until the test lets it go, then `then` (its exit). The hook says
 * when it has let go, and `release` waits for that before it takes the markers away: a release marker
 * removed before the hook saw it would leave the hook, and the host's git processes, waiting forever.
 */
function holdOnHost(hook: Hook, then = "") {
  const path = bare("hooks", hook);
  const original = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  const marker = (name: string) => bare(`push-${name}`);
  writeFileSync(
    path,
    `#!/bin/sh\ntouch "$GIT_DIR/push-held"\nwhile [ ! -f "$GIT_DIR/push-release" ]; do sleep 0.1; done\ntouch "$GIT_DIR/push-done"\n${then}\n`,
  );
  chmodSync(path, 0o755);
  return {
    held: () => arrived(marker("held")),
    async release() {
      writeFileSync(marker("release"), "");
      if (existsSync(marker("held"))) await arrived(marker("done"));
      if (original === undefined) rmSync(path, { force: true });
      else writeFileSync(path, original, { mode: 0o755 });
      for (const name of ["held", "release", "done"]) rmSync(marker(name), { force: true });
    },
  };
}

/** Erin publishes `slug`; the studio is killed while `hook` holds the push on the host, which then ends with `then`. */
async function killedWhileHeld(erin: Awaited<ReturnType<typeof readyToPublish>>, slug: string, hook: Hook, then = "") {
  const hold = holdOnHost(hook, then);
  try {
    const answer = publish(erin, slug).catch(() => undefined);
    await hold.held();
    await studio.kill();
    await answer;
  } finally {
    await hold.release();
  }
}

/** Erin's edit of a landing file, sent to review and approved by Pat: Ready to publish. */
async function readyToPublish(slug: string, change: (raw: string) => string) {
  const erin = await signIn(studio, ERIN, "/admin/approvals");
  await editAndSubmit(studio, erin.context, slug, change);
  const pat = await signIn(studio, PAT, "/admin/approvals");
  const path = `/admin/review/landing/${slug}`;
  await confirmItsYou(studio, pat.page, PAT, path);
  expect((await postForm(studio, pat.page, path, { decision: "approve", comment: "" })).status).toBe(303);
  await pat.context.close();
  return erin;
}

const publish = (erin: Awaited<ReturnType<typeof readyToPublish>>, slug: string) =>
  api(studio, erin.context, "publishUnpublishedEntry", { branch: "main", collection: "landing", slug });

/** The published events of an entry on the host's review log. */
const publishedOnHost = (slug: string) =>
  studio
    .origin("show", "studio-log:events.jsonl")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; entry: { slug: string }; commit: string })
    .filter((e) => e.event === "published" && e.entry.slug === slug);

/** The host's merges of an entry's branch into main (publish commits naming its head as a parent). */
const mergesOnHost = (head: string) =>
  studio
    .origin("rev-list", "--merges", "--parents", "main")
    .split("\n")
    .filter((line) => line.split(" ").slice(1).includes(head));

/** The board as Erin reads it after the restart: the entry's item, and the published list. */
async function board(slug: string) {
  const erin = await signIn(studio, ERIN, "/admin/approvals");
  const item = erin.page.locator(`li[data-entry="cms/landing/${slug}"]`);
  const published = erin.page.locator("section", { has: erin.page.getByRole("heading", { name: "Published lately" }) });
  return { erin, item, published };
}

describe("the studio killed during a publish, then started again", () => {
  it("before the host took the push: main unchanged, the entry stays Ready, and publishing again puts one merge on main", async () => {
    const erin = await readyToPublish("popup", (raw) => raw.replace("get in touch", "write to us"));
    const head = studio.clone("rev-parse", "cms/landing/popup");
    const main = studio.origin("rev-parse", "main");
    await killedWhileHeld(erin, "popup", "pre-receive", "exit 1");
    expect(studio.origin("rev-parse", "main")).toBe(main);

    await studio.start();
    const { erin: again, item } = await board("popup");
    await expectPage(item).toBeVisible();
    expect(studio.clone("rev-parse", "cms/landing/popup")).toBe(head);
    expect((await publish(again, "popup")).status).toBe(200);
    expect(mergesOnHost(head)).toHaveLength(1);
    expect(publishedOnHost("popup")).toHaveLength(1);
  }, 900_000);

  it("after the host took the push: the entry is shown as published, never offered again; one merge, one event, the approver once", async () => {
    const erin = await readyToPublish("hero", (raw) => raw.replace(/^headline: .*$/m, "headline: Settlement for institutions"));
    const head = studio.clone("rev-parse", "cms/landing/hero");
    await killedWhileHeld(erin, "hero", "post-receive");
    // The host has it all: main, the "published" event, the entry gone from its board.
    expect(mergesOnHost(head)).toHaveLength(1);
    expect(publishedOnHost("hero")).toHaveLength(1);

    await studio.start();
    const { erin: again, item, published } = await board("hero");
    await expectPage(item).toHaveCount(0);
    await expectPage(published).toContainText("Landing page: Hero");
    expect((await publish(again, "hero")).body.error).toBe("This entry has no draft to publish.");
    expect(mergesOnHost(head)).toHaveLength(1);
    expect(publishedOnHost("hero")).toHaveLength(1);
    // The approval (the branch's last commit) recorded once in main's ledger: for the one page, the commit Pat reviewed.
    expect(studio.origin("log", "-1", "--format=%B", head)).toContain("Approved by Pat Example");
    const ledger = studio.origin("show", "main:approvals/ledger.json");
    expect(ledger.split(studio.origin("rev-parse", `${head}^`)).length - 1).toBe(1);
  }, 900_000);

  it("in its own fast-forward, git holding the index lock: the stale lock is cleared at start, and the board agrees with the host", async () => {
    const erin = await readyToPublish("industries", (raw) => raw.replace(/^heading: .*$/m, "heading: Built for every desk"));
    const head = studio.clone("rev-parse", "cms/landing/industries");
    const repo = join(studio.stateDir, "repo");
    const [writing, release] = [join(studio.stateDir, "writing"), join(studio.stateDir, "release")];
    // Only while git holds the index lock: a preview build's `git archive` smudges files too, without it.
    const lock = join(repo, ".git", "index.lock");
    studio.clone(
      "config",
      "filter.slow.smudge",
      `sh -c 'if [ -f "${lock}" ]; then touch "${writing}"; while [ ! -f "${release}" ]; do sleep 0.1; done; fi; cat'`,
    );
    writeFileSync(join(repo, ".git", "info", "attributes"), "* filter=slow\n");
    try {
      const answer = publish(erin, "industries").catch(() => undefined);
      await arrived(writing);
      expect(existsSync(join(repo, ".git", "index.lock"))).toBe(true);
      await studio.kill();
      await answer;
    } finally {
      rmSync(join(repo, ".git", "info", "attributes"), { force: true });
      studio.clone("config", "--unset", "filter.slow.smudge");
      rmSync(writing, { force: true });
    }
    expect(existsSync(join(repo, ".git", "index.lock"))).toBe(true);

    await studio.start();
    expect(studio.output()).toMatch(/removed the stale git lock \.git\/index\.lock/);
    expect(existsSync(join(repo, ".git", "index.lock"))).toBe(false);
    const { erin: again, item, published } = await board("industries");
    await expectPage(item).toHaveCount(0);
    await expectPage(published).toContainText("Landing page: Industries");
    expect((await publish(again, "industries")).body.error).toBe("This entry has no draft to publish.");
    expect(mergesOnHost(head)).toHaveLength(1);
    expect(publishedOnHost("industries")).toHaveLength(1);
    expect(studio.clone("rev-parse", "main")).toBe(studio.origin("rev-parse", "main"));
    expect(studio.clone("status", "--porcelain")).toBe("");
  }, 900_000);

  it("a studio started from an empty state directory after all that shows the same: nothing in review, each published once", async () => {
    await studio.kill();
    await studio.start(join(studio.stateDir, "..", "studio-after-the-disk-was-lost"));
    const { item, published } = await board("hero");
    await expectPage(item).toHaveCount(0);
    await expectPage(published.locator("li")).toHaveCount(3);
    expect(studio.clone("for-each-ref", "refs/heads/cms/")).toBe("");
  }, 300_000);
});
