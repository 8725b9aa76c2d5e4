import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { git } from "../../studio/git.ts";
import { listEntries } from "../../studio/workflow/entries.ts";
import { approveEntry, openAdmin, openReview, publishNow, setStatus } from "../../testing/studio/trial-admin.ts";
import { startStudioOnClone, type StudioRun } from "./support.ts";

let run: StudioRun;
let page: Page;
const NEW_HEADLINE = "The trusted leader in institutional digital-asset trading";

beforeAll(async () => {
  run = await startStudioOnClone();
  page = await run.browser.newPage({ viewport: { width: 1440, height: 900 } });
});
afterAll(() => run?.stop(), 60_000);

const openEntry = (route: string) => openAdmin(page, run.origin, route);

describe("the content studio, through the admin in Chromium", () => {
  it("saves an edit of the hero headline as a draft branch that changes only that line", async () => {
    await openEntry("/collections/landing/entries/hero");
    const headline = page.getByLabel("Headline", { exact: true });
    await headline.fill(NEW_HEADLINE);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Status: Draft").first().waitFor();
    const diff = git(run.repo, "diff", "--unified=0", "main", "cms/landing/hero", "--", "src/content/landing/hero.yaml");
    expect(diff.split("\n").filter((line) => /^[-+][^-+]/.test(line))).toEqual([
      "-headline: The trusted leader in institutional digital asset trading",
      `+headline: ${NEW_HEADLINE}`,
    ]);
  });

  it("moves the entry to In review", async () => {
    await setStatus(page, "In review");
    // Decap shows the new status before decap-server has written it: wait for the repository's own record.
    await vi.waitUntil(() => listEntries(run.repo)[0]?.status === "pending_review", { timeout: 30_000, interval: 100 });
    expect(listEntries(run.repo).map((e) => [e.branch, e.status])).toEqual([["cms/landing/hero", "pending_review"]]);
  }, 180_000);

  it("opens the branch's preview build from the entry: the new headline, marked as a draft", async () => {
    // Decap asks for the deploy preview when the entry opens ("Check for Preview" while it waits).
    const link = page.getByRole("link", { name: /View Preview/ });
    await link.waitFor({ timeout: 120_000 });
    const preview = await fetch(new URL("/", (await link.getAttribute("href"))!));
    const html = await preview.text();
    expect(html).toContain(NEW_HEADLINE);
    expect(html).toContain("Draft: not approved for publication");
    expect(preview.headers.get("content-security-policy")).toContain("default-src 'none'");
  }, 180_000);

  it("refuses to publish while the page is not approved, saying which page and why, and main is unchanged", async () => {
    const before = [git(run.repo, "rev-parse", "main"), git(run.project, "rev-parse", "main")];
    await setStatus(page, "Ready");
    await publishNow(page);
    await page
      .getByText("Not published: Landing page (text changed) is not approved by a registered principal.", { exact: false })
      // The studio's notice in the dock; Decap's toast of the same refusal is taken away (one voice, decision 0045).
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 240_000 });
    expect([git(run.repo, "rev-parse", "main"), git(run.project, "rev-parse", "main")]).toEqual(before);
    // The git API refuses it too, whatever the page does.
    const answer = await page.evaluate(async () => {
      const response = await fetch("/api/v1", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: "publishUnpublishedEntry", params: { branch: "main", collection: "landing", slug: "hero" } }),
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatch(/^Not published: Landing page \(text changed\)/);
    expect(git(run.repo, "rev-parse", "main")).toBe(before[0]);
  }, 300_000);

  it("shows the principal each changed page word by word, in plain words, a planted change included", async () => {
    // A change slipped onto the branch outside the editor (here: the contact form's words when it fails) must show too.
    plantOnBranch("cms/landing/hero", "src/content/landing/contact.yaml", (text) =>
      text.replace("could not be loaded", "could not be loaded just now"),
    );
    await openReview(page, run.origin, "landing/hero");
    expect(await page.locator("[data-page]").evaluateAll((pages) => pages.map((p) => p.getAttribute("data-page")))).toEqual(["/"]);
    const words = page.locator('[data-page="/"] .diff');
    expect(await words.locator("ins").allTextContents()).toEqual(["digital-asset", "just now"]);
    expect(await words.locator("del").allTextContents()).toEqual(["digital asset"]);
    // Where each line is met, in plain words: the contact form's text, not the gate's "[island]" tag.
    await expectPage(words.locator("p[data-changed]").filter({ hasText: "just now" })).toContainText(
      "Contact form: text when the form fails:",
    );
    await expectPage(words).not.toContainText("[island]");
    // The page as built from the entry, beside the approved one, the changed words marked.
    const frame = page.frameLocator('iframe[title="Landing page, with this entry\'s changes"]');
    await expectPage(frame.locator("mark.studio-added").first()).toHaveText("digital-asset");
  }, 400_000);

  it("records the principal's approval as a commit on the entry's branch, authored by the principal", async () => {
    await approveEntry(page, { name: "Pat Example", registration: "Series 24, CRD 1234567" });
    expect(git(run.repo, "log", "-1", "--format=%an|%s", "cms/landing/hero")).toBe("Pat Example|Approve / for publication");
    const ledger = JSON.parse(git(run.repo, "show", "cms/landing/hero:approvals/ledger.json")) as {
      pages: Record<string, { approvedBy: string }>;
    };
    expect(ledger.pages["/"]!.approvedBy).toBe("Pat Example, Series 24, CRD 1234567");
    expect(git(run.repo, "show", "cms/landing/hero:approvals/text/index.txt")).toContain(NEW_HEADLINE);
  }, 300_000);

  it("publishes: main holds the change and the approval, the build passes and / shows the new headline", async () => {
    await openEntry("/collections/landing/entries/hero");
    await publishNow(page);
    await page.getByText("Entry published", { exact: false }).first().waitFor({ timeout: 120_000 });
    for (const dir of [run.repo, run.project]) {
      expect(git(dir, "show", "main:src/content/landing/hero.yaml")).toContain(`headline: ${NEW_HEADLINE}`);
      expect(git(dir, "show", "main:approvals/ledger.json")).toContain("Pat Example, Series 24, CRD 1234567");
    }
    execFileSync(process.execPath, ["scripts/astro.ts", "build"], { cwd: run.project, stdio: "pipe" });
    expect(readFileSync(join(run.project, "dist/index.html"), "utf8")).toContain(NEW_HEADLINE);
  }, 400_000);
});

/** A commit on the branch made behind the editor's back (git plumbing, as someone with repository access could). */
function plantOnBranch(branch: string, path: string, change: (text: string) => string) {
  const head = git(run.repo, "rev-parse", branch);
  const text = change(git(run.repo, "show", `${head}:${path}`) + "\n");
  const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: run.repo, input: text, encoding: "utf8" }).trim();
  const index = join(run.project, "..", "plant-index");
  const env = { ...process.env, GIT_INDEX_FILE: index };
  execFileSync("git", ["read-tree", head], { cwd: run.repo, env });
  execFileSync("git", ["update-index", "--cacheinfo", `100644,${blob},${path}`], { cwd: run.repo, env });
  const tree = execFileSync("git", ["write-tree"], { cwd: run.repo, env, encoding: "utf8" }).trim();
  const commit = execFileSync("git", ["commit-tree", tree, "-p", head, "-m", "planted"], { cwd: run.repo, env, encoding: "utf8" }).trim();
  git(run.repo, "update-ref", `refs/heads/${branch}`, commit, head);
}
