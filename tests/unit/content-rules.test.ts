/** What an editor's Markdown may hold (src/build/markdown/content-rules.ts): one sentence per refusal, naming the file and the line. */
import { describe, expect, it } from "vitest";
import { describeHtml, markdownFileProblems } from "../../src/build/markdown/content-rules.ts";

const FILE = "src/content/disclosures/fee-schedule.md";
/** A file with front matter (three lines) and a body: the body's first line is line 5 of the file. */
const file = (body: string) => `---\ntitle: Fee Schedule\n---\n\n${body}\n`;

describe("raw HTML in a document's Markdown", () => {
  it.each([
    // Each row: an edit of the issue that the build published before; the sentence a person reads.
    [
      "a script",
      "Contact us any time.<script>document.title=document.domain+String.fromCharCode(33)</script>",
      `${FILE}, line 5: the text holds raw HTML (a <script> element), which the site does not publish; write it in Markdown, or ask a developer for a named component.`,
    ],
    [
      "a frame",
      '<iframe src="https://evil.example/"></iframe>',
      `${FILE}, line 5: the text holds raw HTML (an <iframe> element), which the site does not publish; write it in Markdown, or ask a developer for a named component.`,
    ],
    [
      "an inline handler",
      "A chart <img src=x onerror=alert(1)> here.",
      `${FILE}, line 5: the text holds raw HTML (an <img> element with the inline handler onerror), which the site does not publish; write it in Markdown, or ask a developer for a named component.`,
    ],
    [
      "a comment that hides words",
      "Visible.\n\n<!-- hidden words -->",
      `${FILE}, line 7: the text holds an HTML comment (<!-- … -->), which hides its words from the page but not from the file; remove it.`,
    ],
    [
      "a javascript: link",
      "[Read more](javascript:alert(1))",
      `${FILE}, line 5: the link "Read more" goes to "javascript:alert(1)"; a link may go only to an https:, mailto: or tel: address or to one of the site's own paths (/privacy-policy).`,
    ],
  ])("refuses %s, naming the file, the line and the element", (_, body, sentence) => {
    expect(markdownFileProblems(file(body), FILE)).toEqual([sentence]);
  });

  it.each([
    // Each row: a destination a link may not have.
    ["data:", "[x](data:text/html,<b>x</b>)"],
    ["vbscript:", "[x](vbscript:msgbox)"],
    ["plain http:", "[FINRA](http://www.finra.org)"],
    ["another site's protocol-relative address", "[x](//evil.example/)"],
    ["a relative path", "[Privacy](privacy-policy)"],
    ["a reference definition", "[FINRA][f]\n\n[f]: javascript:alert(1)"],
    ["a bare www address (GFM makes it http:)", "See www.example.com for more."],
  ])("refuses a link to %s", (_, body) => {
    const problems = markdownFileProblems(file(body), FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^src\/content\/disclosures\/fee-schedule\.md, line \d+: the link( definition)? .* goes to "[^"]*"; a link may go only to/,
    );
  });

  it("refuses an image from anywhere but the site's own files", () => {
    expect(markdownFileProblems(file("![Chart](https://tracker.example/pixel.png)"), FILE)).toEqual([
      `${FILE}, line 5: the image "Chart" comes from "https://tracker.example/pixel.png"; an image may come only from the site's own files (a path such as /images/chart.png).`,
    ]);
  });

  it("names each problem once, and every one of a file", () => {
    const problems = markdownFileProblems(file("<b>Bold</b> words.\n\n[x](javascript:1)\n\n<!-- a -->"), FILE);
    expect(problems.map((p) => p.slice(FILE.length + 2, FILE.length + 9))).toEqual(["line 5:", "line 7:", "line 9:"]);
  });

  it.each([
    // Each row: what a document legitimately holds today.
    ["an https: link", "[FINRA](https://www.finra.org)"],
    ["an e-mail link", "[Write to us](mailto:{{businessEmail}})"],
    ["a telephone link", "[Call](tel:+15550100)"],
    ["the site's own path", "[Privacy Policy](/privacy-policy)"],
    ["an anchor on the page", "[Back to the top](#top)"],
    ["an autolink", "<https://www.sec.gov>"],
    ["the site's own image", "![Chart](/images/chart.png)"],
    ["a less-than sign in words", "Latency < 1 ms, and 2 <3."],
    ["HTML written as code", "Write `<script>` only in code: it is shown, never run."],
    ["escaped markup", "A literal \\<b> is text."],
  ])("accepts %s", (_, body) => {
    expect(markdownFileProblems(file(body), FILE)).toEqual([]);
  });

  it("accepts every document the site has today", async () => {
    const { contentFileProblems } = await import("../../src/build/content-files.ts");
    expect(contentFileProblems(process.cwd())).toEqual([]);
  });

  it.each([
    ["<script>x</script>", "raw HTML (a <script> element)"],
    ['<a href="x" onclick="y" onmouseover="z">', "raw HTML (an <a> element with the inline handlers onclick, onmouseover)"],
    ["</div>", "raw HTML (a <div> end tag)"],
    ["<!-- x -->", "an HTML comment (<!-- … -->), which hides its words from the page but not from the file"],
    [
      '<iframe src="https://evil.example/"></iframe>\nA chart <img src=x onerror=alert(1)> here.\n<!-- x -->',
      "raw HTML (an <iframe> element, an <img> element with the inline handler onerror, and an HTML comment)",
    ],
  ])("names %s as %s", (html, words) => {
    expect(describeHtml(html)).toBe(words);
  });
});
