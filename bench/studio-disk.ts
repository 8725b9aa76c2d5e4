/**
 * `npm run bench:studio-disk`: the disk the team studio uses after 200 edits made through it, against
 * its budget (bench/budgets.ts: 1 GB). The studio runs as `STUDIO_MODE=server npm run studio` would (a
 * process of its own) on a throw-away clone, with the demo's IdP and git host in this process, and a
 * preview builds folder of its own (not the suites' shared one), so that what is measured is this
 * studio's alone: its state directory (the clone of the firm's repository) and the project's `.studio/`
 * (the preview builds and the preview pane's bundle), by `du`.
 *
 * The 200 edits go round four entries of the landing page, each saved as Decap saves it, and sent to
 * review when it is not in review already (which builds it). Every 8th edit its review is opened until
 * drawn (a preview build of a tree never built); every 40th the entry is approved by a principal and
 * published (the approval's build, then main's). So the studio makes about 40 builds (39 in the run of
 * 27 November 2026), four times the bound's ten recent ones (studio/workflow/builds.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "@playwright/test";
import { osFreePort } from "../lib/ports.ts";
import { startDemoIdp } from "../testing/demo/idp.ts";
import { startGitHost, STUDIO_ACCOUNT } from "../testing/demo/git-host.ts";
import { throwawayProject } from "../testing/studio/trial.ts";
import { serverStudioEnv, spawnServerStudio } from "../testing/studio/server-studio.ts";
import { buildsFolder } from "../studio/workflow/builds.ts";
import { findEntry } from "../studio/workflow/entries.ts";
import { studioChromium } from "../testing/studio/browser.ts";
import { api, confirmItsYou, postForm, signIn, type TeamView } from "../testing/studio/team-support.ts";
import { studioDiskBudget } from "./budgets.ts";

const EDITS = Number(process.env.BENCH_STUDIO_EDITS ?? 200);
const REVIEW_EVERY = 8;
const PUBLISH_EVERY = 40;
/** Each entry and the line its edits change. */
const ENTRIES = [
  ["hero", /^headline: .*$/m, "headline"],
  ["features", /^heading: .*$/m, "heading"],
  ["industries", /^heading: .*$/m, "heading"],
  ["contact", /^heading: .*$/m, "heading"],
] as const;

const { project, remove } = throwawayProject();
const folder = mkdtempSync(join(tmpdir(), "bench-studio-disk-"));
const builds = buildsFolder(project);
rmSync(builds, { recursive: true, force: true });
mkdirSync(builds);
const host = await startGitHost(project, join(folder, "host"));
const idp = await startDemoIdp();
const port = await osFreePort();
const url = `http://127.0.0.1:${port}`;
idp.register(url);
const stateDir = join(folder, "studio");
const { child, ended } = await spawnServerStudio(
  project,
  { STUDIO_LOG: "off", ...serverStudioEnv({ url, port, idp, remote: host.urlFor(STUDIO_ACCOUNT), stateDir }) },
  url,
);

/** Bytes on disk of the studio's state and its project's .studio/ (du counts each file once). */
const used = () =>
  Number(
    spawnSync("du", ["-s", "-B1", "-c", stateDir, join(project, ".studio")], { encoding: "utf8" })
      .stdout.trim()
      .split("\n")
      .at(-1)!
      .split("\t")[0],
  );
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const finished = (name: string) => /^[0-9a-f]{40}$/.test(name);

const browser = await studioChromium();
const contexts: BrowserContext[] = [];
let peak = 0;
let made = 0;
const seen = new Set<string>();
let met: boolean | undefined;
try {
  const team: TeamView = {
    url,
    browser,
    person: (email) => idp.users.find((u) => u.email === email)!,
    clone: (...args) => spawnSync("git", args, { cwd: join(stateDir, "repo"), encoding: "utf8" }).stdout.trim(),
  };
  const erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
  const pat = await signIn(team, "pat.example@example.com", "/admin/approvals");
  contexts.push(erin.context, pat.context);
  const started = performance.now();
  for (let n = 1; n <= EDITS; n++) {
    const [slug, line, key] = ENTRIES[n % ENTRIES.length]!;
    // Saved as Decap saves it; sent to review when it is not in review already (a new entry, or one published since).
    const path = `src/content/landing/${slug}.yaml`;
    const raw = `${team.clone("show", `main:${path}`)}\n`.replace(line, `${key}: Edit ${n} of the bench, ${Date.now()}`);
    const options = { collectionName: "landing", commitMessage: `Update ${slug}`, useWorkflow: true, status: "draft" };
    const saved = await api(team, erin.context, "persistEntry", { branch: "main", dataFiles: [{ path, slug, raw }], assets: [], options });
    if (saved.status !== 200) throw new Error(`save refused: ${JSON.stringify(saved.body)}`);
    if (findEntry(join(stateDir, "repo"), "landing", slug)?.status !== "pending_review") {
      const sent = await api(team, erin.context, "updateUnpublishedEntryStatus", {
        branch: "main",
        collection: "landing",
        slug,
        newStatus: "pending_review",
      });
      if (sent.status !== 200) throw new Error(`sending to review refused: ${JSON.stringify(sent.body)}`);
    }
    const review = `/admin/review/landing/${slug}`;
    if (n % PUBLISH_EVERY === 0) {
      await confirmItsYou(team, pat.page, "pat.example@example.com", review);
      const approved = await postForm(team, pat.page, review, { decision: "approve", comment: "" });
      if (approved.status !== 303) throw new Error(`approval refused: ${approved.status} ${approved.text}`);
      const published = await api(team, erin.context, "publishUnpublishedEntry", { branch: "main", collection: "landing", slug });
      if (published.status !== 200) throw new Error(`publish refused: ${JSON.stringify(published.body)}`);
    } else if (n % REVIEW_EVERY === 0) {
      await erin.page.goto(`${url}${review}`);
      await erin.page.locator("main[data-ready]").waitFor({ timeout: 300_000 });
    }
    for (const name of readdirSync(builds).filter(finished)) {
      if (!seen.has(name)) made++;
      seen.add(name);
    }
    peak = Math.max(peak, used());
    if (n % 20 === 0)
      console.log(
        `${n} edits: ${mb(used())} used, ${readdirSync(builds).filter(finished).length} builds kept of ${made} made, ${Math.round((performance.now() - started) / 1000)} s`,
      );
  }
  const end = used();
  met = Math.max(end, peak) <= studioDiskBudget.bytes;
  console.log(
    `\nthe studio's disk after ${EDITS} edits: ${mb(end)} (peak ${mb(peak)}; ${made} preview builds made, ${readdirSync(builds).filter(finished).length} kept), budget ${mb(studioDiskBudget.bytes)} ${met ? "met" : "MISSED"}`,
  );
} finally {
  for (const context of contexts) await context.close();
  await browser.close();
  process.kill(-child.pid!, "SIGTERM");
  await ended;
  await Promise.all([idp.stop(), host.stop()]);
  rmSync(folder, { recursive: true, force: true });
  remove();
}
process.exit(met ? 0 : 1);
