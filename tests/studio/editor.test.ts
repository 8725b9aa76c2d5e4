import { describe, expect, it, vi } from "vitest";
import { type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { git } from "../../studio/git.ts";
import { studioWithPagePerTest, type StudioRun } from "./support.ts";
import { approveEntry, openAdmin, openReview, setStatus } from "../../testing/studio/trial-admin.ts";
import { findEntry, listEntries } from "../../studio/workflow/entries.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

/** The body's "## " headings: the page's sections and its contents list. */
const headingsOf = (source: string) => [...source.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());

let run: StudioRun;
let page: Page;

studioWithPagePerTest({ run: (started) => (run = started), page: (opened) => (page = opened) });

const openEntry = (route: string) => openAdmin(page, run.origin, route);
const branches = () => git(run.repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/cms/");

describe("the studio's editor refuses what the build would refuse", () => {
  it("a fourth value card, with a message naming the field; nothing is saved", async () => {
    await openEntry("/collections/landing/entries/hero");
    await page.getByRole("button", { name: /^Add value cards/ }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Value cards must have exactly 3 item(s).").waitFor();
    expect(branches()).toBe("");
  });

  it("an empty required title, with a message naming the field; nothing is saved", async () => {
    await openEntry("/collections/legal/entries/cookie-policy");
    await page.getByLabel("Title", { exact: true }).fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByText(/Title is required/i)
      .first()
      .waitFor();
    expect(branches()).toBe("");
  });
});

describe("legal Markdown in the studio", () => {
  it("changing one word changes only that word in the .md file", async () => {
    await openEntry("/collections/legal/entries/cookie-policy");
    const editor = page.locator("[data-slate-editor]").first();
    await editor.waitFor();
    // Select the word "small" in "small text files" and type its replacement, as a writer would.
    await editor.evaluate((root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf("small text files");
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + "small".length);
        const selection = window.getSelection()!;
        selection.removeAllRanges();
        selection.addRange(range);
        return;
      }
      throw new Error("the word is not in the editor");
    });
    await page.keyboard.type("tiny");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Status: Draft").first().waitFor();
    const diff = git(
      run.repo,
      "diff",
      "--unified=0",
      "--word-diff=plain",
      "main",
      "cms/legal/cookie-policy",
      "--",
      "src/content/legal/cookie-policy.md",
    );
    const changes = diff.split("\n").filter((line) => line.includes("[-") || line.includes("{+"));
    expect(changes).toHaveLength(1);
    expect([...changes[0]!.matchAll(/\[-(.*?)-\]|\{\+(.*?)\+\}/g)].map((m) => m[0])).toEqual(["[-small-]", "{+tiny+}"]);
    expect(git(run.repo, "diff", "--numstat", "main", "cms/legal/cookie-policy")).toMatch(/^1\t1\tsrc\/content\/legal\/cookie-policy\.md$/);
  });
});

describe("the preview pane shows the entry as visitors get it", () => {
  const pane = () => page.frameLocator("#preview-pane");
  const file = (path: string) => parse(readFileSync(join(run.project, path), "utf8")) as Record<string, unknown>;

  it("the hero: the site's own section with the site's stylesheet, following each edit, naming what the build would refuse", async () => {
    const before = branches();
    await openEntry("/collections/landing/entries/hero");
    const title = pane().locator('[data-studio-preview="ready"] #introduction-title');
    // The stylesheet and the renderer are made as the studio starts: the first drawing may wait for them.
    await expectPage(title).toHaveText(String(file("src/content/landing/hero.yaml").headline), { timeout: 60_000 });
    const looks = await title.evaluate((h1) => ({
      ground: getComputedStyle(h1.closest("section")!).backgroundColor,
      size: parseFloat(getComputedStyle(h1).fontSize),
      weight: getComputedStyle(h1).fontWeight,
    }));
    expect(looks.ground).not.toBe("rgba(0, 0, 0, 0)");
    expect(looks.size).toBeGreaterThanOrEqual(36);
    expect(Number(looks.weight)).toBeGreaterThanOrEqual(600);

    const headline = page.getByLabel("Headline", { exact: true });
    await headline.fill("Settlement for institutions, as the preview draws it");
    await expectPage(title).toHaveText("Settlement for institutions, as the preview draws it");
    await headline.fill("");
    await expectPage(pane().getByRole("alert")).toContainText(/headline: /);
    // Previewing saves nothing.
    expect(branches()).toBe(before);
  });

  it("a legal page: the document layout with the legal typography and its contents list", async () => {
    await openEntry("/collections/legal/entries/privacy-policy");
    const document = pane().locator('[data-studio-preview="ready"] article.legal');
    const sections = headingsOf(readFileSync(join(run.project, "src/content/legal/privacy-policy.md"), "utf8"));
    await expectPage(document.locator(".prose-legal h2")).toHaveText(sections, { timeout: 60_000 });
    await expectPage(document.locator(".legal-toc li")).toHaveText(sections);
    const h2 = await document
      .locator(".prose-legal h2")
      .first()
      .evaluate((heading) => ({
        size: getComputedStyle(heading).fontSize,
        weight: getComputedStyle(heading).fontWeight,
      }));
    // legal.css: 1.375rem at 650.
    expect(h2).toEqual({ size: "22px", weight: "650" });
  });
});

describe("two entries in review at once", () => {
  it("are reviewed and approved apart: each shows only its own change, and approving one leaves the other unapproved", async () => {
    const edit = async (route: string, label: string, value: string) => {
      // A new page for each entry: within one page, Decap keeps the previous entry on screen while the next loads.
      await page.context().close();
      page = await run.browser.newPage({ viewport: { width: 1440, height: 900 } });
      await openEntry(route);
      await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Status: Draft").first().waitFor();
      await setStatus(page, "In review");
    };
    await edit("/collections/landing/entries/hero", "Eyebrow", "For institutional investors only; not an offer or a solicitation");
    await edit(
      "/collections/landing/entries/popup",
      "Body",
      "We are still building the platform. You are welcome to write to us in the meantime.",
    );
    // Decap shows the new status before decap-server has written it: wait for the repository's own record.
    await vi.waitUntil(() => listEntries(run.repo).filter((e) => e.status === "pending_review").length === 2, {
      timeout: 30_000,
      interval: 100,
    });
    const inserted = async (entry: string) => {
      await openReview(page, run.origin, entry);
      return page.locator('[data-page="/"] .diff ins').allTextContents();
    };
    expect(await inserted("landing/hero")).toEqual(["a"]);
    expect(await inserted("landing/popup")).toEqual(["write to us"]);
    await approveEntry(page, { name: "Sam Sample", registration: "Series 24, CRD 7654321" });
    await expectPage(page.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
    expect(await inserted("landing/hero")).toEqual(["a"]);
    await expectPage(page.getByRole("button", { name: "Approve 1 page" })).toHaveCount(1);
    expect(git(run.repo, "show", "cms/landing/popup:approvals/ledger.json")).toContain("Sam Sample, Series 24, CRD 7654321");
    expect(git(run.repo, "show", "cms/landing/hero:approvals/ledger.json")).not.toContain("Sam Sample");
  }, 400_000);

  it("the approved one, edited again in Decap: the save goes through, and its page needs a principal's approval again", async () => {
    // The popup as the test above left it: approved by Sam Sample (Ready), the approval a commit on its branch.
    const branch = "cms/landing/popup";
    expect(findEntry(run.repo, "landing", "popup")?.status).toBe("pending_publish");
    const approved = git(run.repo, "rev-parse", branch);
    await openEntry("/collections/landing/entries/popup");
    const body = page.getByLabel("Body", { exact: true });
    await expectPage(body).toHaveValue(/write to us in the meantime/);
    await body.fill("We are still building the platform. You are welcome to write to us at any time.");
    await page.getByText(/^Unsaved changes$/i).waitFor();
    await page.getByRole("button", { name: "Save" }).click();
    // Decap fetched the approval's files as the entry's media, through blob: URLs the admin's policy refuses: "Failed to persist entry".
    const failed = page.getByText(/^Failed to persist entry/);
    await page.getByText("Changes saved").or(failed).first().waitFor();
    expect(await failed.allTextContents()).toEqual([]);
    expect(git(run.repo, "rev-parse", `${branch}^`)).toBe(approved);
    expect(git(run.repo, "show", `${branch}:src/content/landing/popup.yaml`)).toContain("write to us at any time");
    // The approval's files stay as the principal left them: the ledger names the text approved, which is no longer the page's.
    for (const file of ["approvals/ledger.json", "approvals/text/index.txt"])
      expect(git(run.repo, "rev-parse", `${branch}:${file}`), file).toBe(git(run.repo, "rev-parse", `${approved}:${file}`));
    expect(findEntry(run.repo, "landing", "popup")?.status).toBe("draft");
    await expectPage(page.locator('[data-studio-notice="entry-state"]')).toContainText("Draft: set Status to In review");
    await setStatus(page, "In review");
    await vi.waitUntil(() => findEntry(run.repo, "landing", "popup")?.status === "pending_review", { timeout: 30_000, interval: 100 });
    await openReview(page, run.origin, "landing/popup");
    const landing = page.locator('section[data-page="/"]');
    await expectPage(landing.locator("h2 small")).toHaveText("(text changed)");
    expect((await landing.locator(".diff ins").allTextContents()).join(" ")).toContain("at any time");
    await expectPage(page.getByRole("button", { name: "Approve 1 page" })).toBeVisible();
    // Publishing applies the same rule (the page's text hash against the branch's ledger): refused.
    const check = (await (await page.request.get(`${run.origin}/admin/approvals/check?collection=landing&slug=popup`)).json()) as {
      refusal: string | null;
    };
    expect(check.refusal).toMatch(/^Not published: Landing page \(text changed\) is not approved/);
  }, 400_000);
});
