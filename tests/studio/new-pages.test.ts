/**
 * A save that adds or withdraws a page, judged against the studio's clone before decap-server sees it
 * (studio/workflow/new-pages.ts): a table of what Decap sends, on a repository with the site's documents.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentSaveRefusal } from "../../studio/workflow/new-pages.ts";

let repo: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
const page = (title: string, extra = "") =>
  `---\ntitle: ${title}\norder: 1\ndescription: A description long enough for the schema's fifty character minimum.\nlastUpdated: 2026-11-01\n${extra}---\n\n## One\n`;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "new-pages-"));
  git("init", "--quiet", "--initial-branch", "main");
  const files = {
    "src/content/legal/terms-of-service.md": page("Terms of Service"),
    "src/content/disclosures/business-continuity.md": page("Business Continuity Plan Summary"),
    "src/content/disclosures/fee-schedule.md": page("Fee Schedule"),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, ".."), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git("add", ".");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "Documents");
  // A new disclosure in the workflow, not yet published: Decap's branch for it.
  git("branch", "cms/disclosures/order-routing");
}, 30_000);
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const save = (collection: string, slug: string, raw: string) => ({
  branch: "main",
  dataFiles: [{ path: `src/content/${collection}/${slug}.md`, slug, raw }],
  options: { collectionName: collection, useWorkflow: true, status: "draft" },
});

describe("a save that adds or withdraws a page", () => {
  it.each([
    // a new disclosure at an address of its own
    ["disclosures", "conflicts-of-interest", page("Conflicts of Interest"), null],
    // an edit of a page the site has, and of a new one in the workflow
    ["disclosures", "fee-schedule", page("Fee Schedule, revised"), null],
    ["disclosures", "order-routing", page("Order Routing"), null],
    ["legal", "terms-of-service", page("Terms of Service"), null],
    // a landing file: not this check's
    ["landing", "hero", "headline: x\n", null],
    // a withdrawal of a disclosure
    ["disclosures", "fee-schedule", page("Fee Schedule", "withdrawn: 2026-12-01\n"), null],
    // an emptied withdrawal is none
    ["disclosures", "business-continuity", page("Business Continuity Plan Summary", 'withdrawn: ""\n'), null],
  ])("lets a %s save of /%s through (%#)", (collection, slug, raw, refusal) => {
    expect(documentSaveRefusal(repo, save(collection, slug, raw))).toBe(refusal);
  });

  it.each([
    [
      "a title whose address a legal page has",
      save("disclosures", "terms-of-service", page("Terms of Service")),
      "The address /terms-of-service, made from the title, is taken by Terms of Service: give the page a title of its own.",
    ],
    [
      "a title Decap numbered because its collection has the address",
      save("disclosures", "fee-schedule-1", page("Fee Schedule")),
      "The address /fee-schedule, made from the title, is taken by Fee Schedule: give the page a title of its own.",
    ],
    [
      "a title whose address a route has",
      save("disclosures", "sitemap", page("Sitemap")),
      "The address /sitemap, made from the title, is taken by the sitemap: give the page a title of its own.",
    ],
    [
      "the disclosures index's address",
      save("disclosures", "disclosures", page("Disclosures")),
      "The address /disclosures, made from the title, is taken by the disclosures index: give the page a title of its own.",
    ],
    [
      "a title whose address is in the workflow",
      save("disclosures", "order-routing-1", page("Order Routing")),
      "The address /order-routing, made from the title, is taken by order-routing (in the workflow): give the page a title of its own.",
    ],
    [
      "a new legal page",
      save("legal", "imprint", page("Imprint")),
      "Legal pages are not added in the studio: it edits the ones the site has.",
    ],
    [
      "a withdrawal of the business continuity summary",
      save("disclosures", "business-continuity", page("Business Continuity Plan Summary", "withdrawn: 2026-12-01\n")),
      "Business Continuity Plan Summary cannot be withdrawn: FINRA Rule 4370 requires the summary of the business continuity plan on the website.",
    ],
    [
      "a withdrawal of a legal page",
      save("legal", "terms-of-service", page("Terms of Service", "withdrawn: 2026-12-01\n")),
      "The legal pages are the specification's four: they cannot be withdrawn.",
    ],
    [
      "a new disclosure that starts withdrawn",
      save("disclosures", "best-execution", page("Best Execution", "withdrawn: 2026-12-01\n")),
      "A new disclosure cannot start withdrawn: leave Withdrawn empty.",
    ],
  ])("refuses %s, in one sentence", (_, params, refusal) => {
    expect(documentSaveRefusal(repo, params)).toBe(refusal);
  });
});
