import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Page } from "@playwright/test";
import { git } from "../../studio/git.ts";
import { startStudioOnClone, type StudioRun } from "./support.ts";
import { openAdmin } from "../../studio/trial-admin.ts";

let run: StudioRun;
let page: Page;

beforeAll(async () => {
  run = await startStudioOnClone();
}, 120_000);
// A new browser context for each test: an entry left with unsaved changes holds the editor.
beforeEach(async () => {
  page = await run.browser.newPage({ viewport: { width: 1440, height: 900 } });
});
afterEach(() => page.context().close());
afterAll(() => run?.stop(), 60_000);

const openEntry = (route: string) => openAdmin(page, run.origin, route);
const branches = () => git(run.repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/cms/");

describe("the studio's editor refuses what the build would refuse", () => {
  it("a fourth value card, with a message naming the field; nothing is saved", async () => {
    await openEntry("/collections/landing/entries/hero");
    await page.getByRole("button", { name: /^Add value cards/ }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Value cards must have exactly 3 item(s).").waitFor();
    expect(branches()).toBe("");
  }, 120_000);

  it("an empty required title, with a message naming the field; nothing is saved", async () => {
    await openEntry("/collections/legal/entries/cookie-policy");
    await page.getByLabel("Title", { exact: true }).fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByText(/Title is required/i)
      .first()
      .waitFor();
    expect(branches()).toBe("");
  }, 120_000);
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
  }, 120_000);
});
