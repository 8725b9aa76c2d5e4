/**
 * What a principal approves is everything a visitor gets, in the studio (decision 0041, 0043): raw HTML
 * and unsafe links refused before a save in the build's own sentence, the preview refusing them too, and
 * a changed link target shown in the review's changed words as its old and new address.
 */
import { describe, expect, it, vi } from "vitest";
import { type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import { git } from "../../studio/git.ts";
import { studioWithPagePerTest, type StudioRun } from "./support.ts";
import { openAdmin, openReview, setStatus } from "../../testing/studio/trial-admin.ts";
import { listEntries } from "../../studio/workflow/entries.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";

let run: StudioRun;
let page: Page;

studioWithPagePerTest({ run: (started) => (run = started), page: (opened) => (page = opened) });

const branches = () => git(run.repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/cms/");
const FILE = "src/content/disclosures/business-continuity.md";

/** Types a new last paragraph into a document's Markdown, as a writer would: the caret after its last word, then a blank line. */
async function appendParagraph(text: string) {
  const editor = page.locator("[data-slate-editor]").first();
  await editor.waitFor();
  await editor.evaluate((root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let last: Node | null = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.trim()) last = node;
    if (!last) throw new Error("the editor has no text");
    const range = document.createRange();
    range.setStart(last, last.textContent!.length);
    range.collapse(true);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
  });
  // A blank line first: in the raw Markdown, Enter starts a new line, two start a new paragraph.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await page.keyboard.type(text);
}

describe("raw HTML and unsafe links, refused before a save", () => {
  it("each edit of the issue: the preview and the save name the file, the line and what is refused; nothing is saved", async () => {
    // Each row: an edit that the build published before, and the sentence the build now gives for it.
    const edits = [
      [
        "Contact us any time.<script>document.title=document.domain+String.fromCharCode(33)</script>",
        "the text holds raw HTML (a <script> element), which the site does not publish",
      ],
      ['<iframe src="https://evil.example/"></iframe>', "the text holds raw HTML (an <iframe> element), which the site does not publish"],
      [
        "A chart <img src=x onerror=alert(1)> here.",
        "the text holds raw HTML (an <img> element with the inline handler onerror), which the site does not publish",
      ],
      [
        "[Read more](javascript:alert(1))",
        'the link "Read more" goes to "javascript:alert(1)"; a link may go only to an https:, mailto: or tel: address',
      ],
      ["<!-- words hidden from the page -->", "the text holds an HTML comment (<!-- … -->), which hides its words from the page"],
    ] as const;
    const lines = readFileSync(join(run.project, FILE), "utf8").split("\n").length;
    await openAdmin(page, run.origin, "/collections/disclosures/entries/business-continuity");
    for (const [text] of edits) await appendParagraph(text);
    // The preview renders with the build's processor and its rules: it shows each refusal, never the markup.
    const pane = page.frameLocator("#preview-pane");
    for (const [, sentence] of edits) await expectPage(pane.getByRole("alert")).toContainText(sentence, { timeout: 60_000 });
    await page.getByRole("button", { name: "Save" }).click();
    const notice = page.locator('[data-studio-notice="refused-persistEntry"]');
    for (const [, sentence] of edits) await expectPage(notice).toContainText(sentence);
    // Each sentence names the file and its own line, past the file's own lines: the paragraphs just typed, in order.
    const named = [...((await notice.textContent()) ?? "").matchAll(/business-continuity\.md, line (\d+): /g)].map((m) => Number(m[1]));
    expect(named).toHaveLength(edits.length);
    expect(named[0]).toBeGreaterThanOrEqual(lines);
    expect(named).toEqual([...named].sort((a, b) => a - b));
    expect(new Set(named).size).toBe(edits.length);
    expect(branches()).toBe("");
  }, 180_000);
});

describe("a changed link target in the principal's review", () => {
  it("is listed in the changed words as the old address and the new one, though every word stayed", async () => {
    const phish = "https://finra-brokercheck.example-phish.net";
    await openAdmin(page, run.origin, "/collections/legal/entries/risk-disclosures");
    const editor = page.locator("[data-slate-editor]").first();
    await editor.waitFor();
    // Select the address of the FINRA link in "[FINRA](https://www.finra.org) and the [SEC]" and type the new one.
    await editor.evaluate((root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf("[FINRA](https://www.finra.org) and");
        if (at < 0) continue;
        const start = at + "[FINRA](".length;
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, start + "https://www.finra.org".length);
        const selection = window.getSelection()!;
        selection.removeAllRanges();
        selection.addRange(range);
        return;
      }
      throw new Error("the FINRA link is not in the editor");
    });
    await page.keyboard.type(phish);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Status: Draft").first().waitFor();
    await setStatus(page, "In review");
    await vi.waitUntil(() => listEntries(run.repo).some((e) => e.slug === "risk-disclosures" && e.status === "pending_review"), {
      timeout: 30_000,
      interval: 100,
    });
    await openReview(page, run.origin, "legal/risk-disclosures");
    const words = page.getByRole("region", { name: "The changed words" });
    await expectPage(words).toContainText(`Link: FINRA: https://www.finra.org → ${phish}`);
    await expectPage(words.locator("del")).toHaveText(["https://www.finra.org"]);
    await expectPage(words.locator("ins")).toHaveText([phish]);
    // It is a change to approve, as a changed word is.
    await expectPage(page.getByRole("button", { name: "Approve 1 page" })).toHaveCount(1);
  }, 400_000);
});
