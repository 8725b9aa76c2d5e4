/**
 * The team studio for the tests: a throw-away clone of this project, the demo's IdP and git host, the
 * studio in server mode between them, and Chromium; people sign in through the IdP's own form, each in
 * a browser context of their own.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../expect-page.ts";
import { studioChromium } from "./browser.ts";
import { startTeamStudio, type TeamOptions, type TeamStudio } from "../demo/team.ts";
import type { DemoUser } from "../demo/idp.ts";
import { throwawayProject } from "./trial.ts";
import { answerSignIn, reviewReady } from "./trial-admin.ts";

export interface Team extends TeamStudio {
  project: string;
  browser: Browser;
  person(email: string): DemoUser;
  /** git in the host's bare repository (what the firm's git host holds). */
  origin(...args: string[]): string;
  /** git in the studio's clone. */
  clone(...args: string[]): string;
}

/** `prepare`: called with the throw-away project before the studio starts on it (e.g. to give it a builds folder of its own). */
/** What the helpers below use of a team: also made by a test that starts the studio as a process of its own (deploy.test.ts). */
export type TeamView = Pick<Team, "url" | "browser" | "person" | "clone">;

export async function startTeam(settings?: TeamOptions["settings"], prepare?: (project: string) => void): Promise<Team> {
  const { project, remove } = throwawayProject();
  prepare?.(project);
  const team = await startTeamStudio({ project, folder: join(project, "..", "team"), settings });
  const browser = await studioChromium();
  const gitIn =
    (cwd: string) =>
    (...args: string[]) =>
      execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
  const stopTeam = team.stop;
  // The same object (not a copy): a restart replaces its studio.
  return Object.assign(team, {
    project,
    browser,
    person: (email: string) => team.idp.users.find((u) => u.email === email)!,
    origin: gitIn(team.host.bare),
    // The studio's clone now: a restart on another state directory has another.
    clone: (...args: string[]) => gitIn(team.studio.repo)(...args),
    async stop() {
      await browser.close();
      await stopTeam();
      remove();
      rmSync(join(project, "..", "team"), { recursive: true, force: true });
    },
  });
}

export { answerSignIn };

/** A person signed in, in a browser context of their own, on `path` (the studio sends them through the IdP first). */
export async function signIn(team: TeamView, email: string, path = "/admin/approvals"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await team.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${team.url}${path}`);
  await answerSignIn(page, team.person(email));
  await page.waitForURL(`${team.url}${path}`, { timeout: 120_000 });
  if (path.startsWith("/admin/review/")) await reviewReady(page);
  return { context, page };
}

/** The git API as the admin page calls it, from a signed-in context. */
export async function api(team: TeamView, context: BrowserContext, action: string, params: Record<string, unknown>) {
  const response = await context.request.post(`${team.url}/api/v1`, {
    data: { action, params },
    headers: { Origin: team.url, "Sec-Fetch-Site": "same-origin" },
    // A publish builds the site before it answers, and every call waits its turn behind the one before
    // (the API is serial): past Playwright's default 30 s on a loaded machine.
    timeout: 180_000,
  });
  return { status: response.status(), body: (await response.json()) as { error?: string } & Record<string, unknown> };
}

/** An edit of a landing file saved as Decap saves it (a draft on the entry's branch), then sent to review. */
export async function editAndSubmit(team: TeamView, context: BrowserContext, slug: string, change: (raw: string) => string) {
  const path = `src/content/landing/${slug}.yaml`;
  const raw = change(team.clone("show", `main:${path}`) + "\n");
  const saved = await api(team, context, "persistEntry", {
    branch: "main",
    dataFiles: [{ path, slug, raw }],
    assets: [],
    options: { collectionName: "landing", commitMessage: `Update Landing page “${slug}”`, useWorkflow: true, status: "draft" },
  });
  if (saved.status !== 200) throw new Error(`save refused: ${JSON.stringify(saved)}`);
  const sent = await api(team, context, "updateUnpublishedEntryStatus", {
    branch: "main",
    collection: "landing",
    slug,
    newStatus: "pending_review",
  });
  if (sent.status !== 200) throw new Error(`status refused: ${JSON.stringify(sent)}`);
}

/** A form of the studio's own pages posted as the page would post it, its token read from the page. */
export async function postForm(team: TeamView, page: Page, path: string, fields: Record<string, string>, token?: string) {
  const csrf = token ?? (await page.locator('input[name="_csrf"]').first().inputValue());
  // A page without the decision form (an editor's review) has no head field: none is sent, at once,
  // instead of waiting out the page's whole timeout for a field that is not coming.
  const headField = page.locator('input[name="head"]').first();
  const head = (await headField.count()) ? await headField.inputValue() : "";
  const response = await page.context().request.post(`${team.url}${path}`, {
    form: { _csrf: csrf, head, ...fields },
    headers: { Origin: team.url, "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  return { status: response.status(), text: await response.text(), location: response.headers().location };
}

/** "Confirm it's you": a sign-in with the password again, back on the review (once in ten minutes is enough). */
export async function confirmItsYou(team: TeamView, page: Page, who: string, path: string) {
  await page.goto(`${team.url}${path}`);
  await reviewReady(page);
  // An entry's review ("… to approve") or a page's ("… to record a review").
  const link = page.getByRole("link", { name: /^Confirm it's you to / });
  if ((await link.count()) === 0)
    return void (await expectPage(page.getByRole("button", { name: /^(Approve|Reviewed, no change)/ })).toBeVisible());
  await link.click();
  await answerSignIn(page, team.person(who));
  await page.waitForURL(`${team.url}${path}`, { timeout: 120_000 });
  await reviewReady(page);
}

/** A commit made on the git host directly (an administrator's, past the hook), with git's plumbing in the bare repository. */
export function adminCommit(team: Team, path: string, change: (raw: string) => string): string {
  const index = join(team.host.bare, "admin-index");
  const git = (args: string[], input?: string) =>
    execFileSync("git", args, { cwd: team.host.bare, input, encoding: "utf8", env: { ...process.env, GIT_INDEX_FILE: index } }).trim();
  const blob = git(["hash-object", "-w", "--stdin"], change(`${team.origin("show", `main:${path}`)}\n`));
  git(["read-tree", "main"]);
  git(["update-index", "--cacheinfo", `100644,${blob},${path}`]);
  const commit = git(["commit-tree", git(["write-tree"]), "-p", "main", "-m", "An administrator's change"]);
  git(["update-ref", "refs/heads/main", commit]);
  return commit;
}
