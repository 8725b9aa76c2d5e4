/**
 * Preview builds against the machine: a build under way when the studio stops is stopped with it and
 * leaves nothing behind; a disk that fills during a build gives the editor one sentence and breaks
 * nothing else, and the review builds once there is room again.
 *
 * The full disk is a real one: the studio's builds folder is a tmpfs of 1 MiB (mounted by root, as CI
 * runs), so `tar` and `astro build` meet ENOSPC from the kernel exactly as on a full volume, while the
 * studio's clone, its decap-server and the sessions are on the ordinary disk, as they would be on a host
 * whose builds filled a volume. Growing the tmpfs (`mount -o remount,size=`) is the IT person making room.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { isCI } from "../../scripts/lib/system-deps.ts";
import { git } from "../../studio/git.ts";
import { studioOnThrowawayClone } from "../../testing/studio/trial.ts";
import { buildOf, buildsFolder, DISK_FULL } from "../../studio/workflow/builds.ts";
import { reviewReady } from "../../testing/studio/trial-admin.ts";
import { editAndSubmit, signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";

/** The processes whose working folder is `folder` (a build's: astro and its children), read from /proc. */
function processesIn(folder: string): number[] {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch {
    return [];
  }
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === real;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const waitFor = async (condition: () => boolean, what: string, ms = 120_000) => {
  for (const started = Date.now(); !condition();) {
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
};

describe("a build under way when the studio stops", () => {
  it("is stopped with it, its processes ended and its folder removed", async () => {
    const trial = await studioOnThrowawayClone();
    let stopped = false;
    try {
      // A tree never built: a commit of its own on a branch of the studio's clone.
      git(trial.repo, "checkout", "--quiet", "-b", "cms/landing/stop-test", "main");
      appendFileSync(join(trial.repo, "README.md"), `\nstop test ${randomUUID()}\n`);
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-am", "y"], { cwd: trial.repo });
      git(trial.repo, "checkout", "--quiet", "main");
      const tree = git(trial.repo, "rev-parse", "cms/landing/stop-test^{tree}");
      // The suites' shared builds folder, by its own path: the throw-away project (and its link to it) goes with the studio.
      const builds = realpathSync(buildsFolder(trial.project));
      const build = buildOf(trial.project, trial.repo, "cms/landing/stop-test");
      const outcome = build.then(
        () => "built",
        (error: Error) => error.message,
      );
      // Under way: astro runs in the build's own folder (main's build, made as the studio started, may come first).
      let work = "";
      await waitFor(() => {
        work = readdirSync(builds).find((name) => name.startsWith(`${tree}.tmp-`)) ?? "";
        return work !== "" && processesIn(join(builds, work)).length > 0;
      }, "the build to start");
      const running = processesIn(join(builds, work));
      await trial.stop();
      stopped = true;
      expect(await outcome).not.toBe("built");
      expect(running.filter((pid) => existsSync(`/proc/${pid}`))).toEqual([]);
      expect(readdirSync(builds).filter((name) => name.startsWith(tree))).toEqual([]);
    } finally {
      if (!stopped) await trial.stop();
    }
  }, 240_000);
});

/** Root can mount a tmpfs; elsewhere the test is skipped locally with the reason, and fails under CI. */
const mountable = process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v mount"]).status === 0;
if (!mountable) console.log(`${isCI() ? "FAILED" : "skipped"}: the disk-full test mounts a tmpfs, which needs root (CI runs as root).`);

describe.skipIf(!mountable && !isCI())("a full disk during a preview build", () => {
  let team: Team;
  let builds = "";
  let erin: Page;

  beforeAll(async () => {
    team = await startTeam(undefined, (project) => {
      // The builds folder of its own (not the suites' shared one), on a 1 MiB tmpfs: no build fits.
      builds = buildsFolder(project);
      rmSync(builds, { recursive: true, force: true });
      mkdirSync(builds, { recursive: true });
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=1M,mode=0755", "tmpfs", builds]);
    });
  }, 180_000);

  afterAll(async () => {
    if (builds) spawnSync("umount", ["-l", builds]);
    await team?.stop();
  });

  it("gives the editor one sentence at the entry's review, and leaves no half-made build", async () => {
    ({ page: erin } = await signIn(team, "erin.editor@example.com", "/admin/approvals"));
    await editAndSubmit(team, erin.context(), "hero", (raw) => raw.replace(/^headline: .*$/m, "headline: Disk full, still saved"));
    const review = `${team.url}/admin/review/landing/hero`;
    const statuses: number[] = [];
    erin.on("response", (response) => void (response.url() === review && statuses.push(response.status())));
    await erin.goto(review);
    // The page waits for the builds (it refreshes itself) until they fail; then one sentence, and nothing of the failure's detail.
    await expectPage(erin.getByRole("alert")).toHaveText(DISK_FULL);
    expect(statuses.at(-1)).toBe(503);
    const text = await erin.locator("main").innerText();
    expect(text).not.toMatch(/ENOSPC|No space left|\/tmp|\.studio|tar:|astro/i);
    // The other build the review asked for may still be trying: once it has failed too, nothing is left.
    await waitFor(() => readdirSync(builds).length === 0, "the builds folder to be empty");
    expect(readdirSync(builds)).toEqual([]);
  });

  it("breaks nothing else: the board, a save, health and readiness answer", async () => {
    const approvals = await erin.goto(`${team.url}/admin/approvals`);
    expect(approvals?.status()).toBe(200);
    await expectPage(erin.getByRole("heading", { level: 1 })).toHaveText("Approvals");
    await editAndSubmit(team, erin.context(), "features", (raw) => `${raw}# saved while the builds' disk was full\n`);
    expect(team.clone("rev-parse", "--verify", "cms/landing/features")).toMatch(/^[0-9a-f]{40}$/);
    expect((await fetch(`${team.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${team.url}/readyz`)).status).toBe(200);
  });

  it("builds the review once there is room again", async () => {
    execFileSync("mount", ["-o", "remount,size=400M", builds]);
    // A build that failed for want of room is tried again after a pause (builds.ts), then the review is drawn.
    for (const started = Date.now(); ;) {
      await erin.goto(`${team.url}/admin/review/landing/hero`);
      if ((await erin.getByRole("alert").count()) === 0) break;
      if (Date.now() - started > 60_000) throw new Error("the review still reads the disk-full sentence after 60 s");
      await new Promise((done) => setTimeout(done, 1000));
    }
    await reviewReady(erin);
    await expectPage(erin.getByRole("heading", { level: 1 })).toHaveText("Landing page: Hero");
  }, 400_000);
});
