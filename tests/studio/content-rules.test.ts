/**
 * What a principal approves is everything a visitor gets, in the studio (decision 0041, 0043): raw HTML
 * and unsafe links refused before a save in the build's own sentence, the preview refusing them too, and
 * a changed link target shown in the review's changed words as its old and new address.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type Page } from "@playwright/test";
import { expectPage } from "../support/expect-page.ts";
import { git } from "../../studio/git.ts";
import { startStudioOnClone, type StudioRun } from "./support.ts";
import { openAdmin, openReview, setStatus } from "../../studio/trial-admin.ts";
import { listEntries } from "../../studio/workflow/entries.ts";

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

const branches = () => git(run.repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/cms/");
const FILE = "src/content/disclosures/business-continuity.md";

/** Types a new last paragraph into a document's Markdown, as a writer would: the caret after its last word, then Enter. */
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
  await page.keyboard.press("Enter");
  await page.keyboard.type(text);
}

describe("raw HTML and unsafe links, refused before a save", () => {
  it.each([
    // Each row: an edit of the issue, and the sentence the build gives for it.
    [
      "a script",
      "Contact us any time.<script>document.title=document.domain+String.fromCharCode(33)</script>",
      "the text holds raw HTML (a <script> element), which the site does not publish",
    ],
    [
      "a frame",
      '<iframe src="https://evil.example/"></iframe>',
      "the text holds raw HTML (an <iframe> element), which the site does not publish",
    ],
    [
      "an inline handler",
      "A chart <img src=x onerror=alert(1)> here.",
      "the text holds raw HTML (an <img> element with the inline handler onerror), which the site does not publish",
    ],
    [
      "a javascript: link",
      "[Read more](javascript:alert(1))",
      'the link "Read more" goes to "javascript:alert(1)"; a link may go only to an https:, mailto: or tel: address',
    ],
    [
      "a hidden comment",
      "<!-- words hidden from the page -->",
      "the text holds an HTML comment (<!-- … -->), which hides its words from the page",
    ],
  ])(
    "%s: the preview and the save name the file, the line and what is refused; nothing is saved",
    async (_, text, sentence) => {
      const lines = (await import("node:fs")).readFileSync(`${run.project}/${FILE}`, "utf8").split("\n").length;
      await openAdmin(page, run.origin, "/collections/disclosures/entries/business-continuity");
      await appendParagraph(text);
      // The preview renders with the build's processor: it shows the refusal, never the markup.
      const pane = page.frameLocator("#preview-pane");
      await expectPage(pane.getByRole("alert")).toContainText(sentence, { timeout: 60_000 });
      await page.getByRole("button", { name: "Save" }).click();
      const notice = page.locator('[data-studio-notice="refused-persistEntry"]');
      await expectPage(notice).toContainText(sentence);
      // The sentence names the file and a line past the file's own: the paragraph just typed.
      const line = Number(/business-continuity\.md, line (\d+): /.exec((await notice.textContent()) ?? "")?.[1]);
      expect(line).toBeGreaterThanOrEqual(lines);
      expect(branches()).toBe("");
    },
    120_000,
  );
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
