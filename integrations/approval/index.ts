import type { AstroIntegration } from "astro";
import { rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtPages, readLedger } from "../../lib/approval/files.ts";
import { failureLine, markDraft, PREVIEW_TEXTS_FILE, unapprovedPages } from "../../lib/approval/ledger.ts";
import { readRoster } from "../../lib/approval/roster.ts";
import { readReviewPolicy, reviewDays } from "../../lib/approval/reviews.ts";
import { pageSources } from "../../lib/approval/sources.ts";
import { contentFileProblems, documentFiles } from "../../src/build/content-files.ts";

/** The day each document page was last reviewed, as the ledger records it (decision 0056). */
const REVIEWS_ID = "virtual:page-reviews";

export interface ApprovalOptions {
  /** A build for reviewers: unapproved text is built anyway and marked as a draft, never published. */
  preview: boolean;
}

/**
 * Approval before publication, in `astro build`: the production build fails on any page whose text is
 * not the approved one, one line per page, and deletes its output so that it cannot be deployed by
 * mistake. The preview build marks those pages instead (before the publish integration takes the CSP
 * hashes, so the banner's style is allowed) and leaves every page's text beside them for
 * `npm run approve`. `npm run dev` marks drafts as the preview does, through a middleware. The
 * principals' roster (roster.ts) must parse, and the content's Markdown must hold no raw HTML or unsafe
 * link target (src/build/markdown/content-rules.ts), or nothing is built. So must the review policy
 * (lib/approval/reviews.ts), whose time zone dates the documents' "Last reviewed" line: the one fact of
 * `approvals/` a page reads, through `virtual:page-reviews` (decision 0056).
 */
export function approval({ preview }: ApprovalOptions): AstroIntegration {
  let root = process.cwd();
  return {
    name: "approval",
    hooks: {
      "astro:config:setup": ({ command, config, addMiddleware, updateConfig }) => {
        root = fileURLToPath(config.root);
        // The principals' roster is the authority for every approval the studio records: a broken one stops the build.
        const roster = readRoster(root);
        // So is the review policy, which names the roster's people and the site's pages.
        const policy = readReviewPolicy(root, { pages: Object.keys(pageSources(root)), roster });
        const documents = documentFiles(root).map(({ slug }) => `/${slug}`);
        const days = reviewDays(readLedger(root), documents, policy.timeZone);
        updateConfig({
          vite: {
            plugins: [
              {
                name: "page-reviews",
                resolveId: (id: string) => (id === REVIEWS_ID ? `\0${REVIEWS_ID}` : undefined),
                load: (id: string) => (id === `\0${REVIEWS_ID}` ? `export const reviewDays = ${JSON.stringify(days)};` : undefined),
              },
            ],
          },
        });
        // What a principal approves is everything a visitor gets: no raw HTML, no unsafe link target (every file, at once).
        const problems = command === "build" ? contentFileProblems(root) : [];
        if (problems.length > 0) throw new Error(`${problems.join("\n")}\nNothing was built.`);
        if (command === "dev") addMiddleware({ entrypoint: new URL("./dev-middleware.ts", import.meta.url), order: "post" });
      },
      "astro:build:done": async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const pages = builtPages(out);
        const unapproved = unapprovedPages(pages, readLedger(root));
        if (preview) {
          const texts = Object.fromEntries(pages.map((p) => [p.page, { sha256: p.sha256, text: p.text }]));
          await writeFile(join(out, PREVIEW_TEXTS_FILE), `${JSON.stringify({ pages: texts }, null, 2)}\n`);
          for (const p of unapproved) await writeFile(p.file, markDraft(await readFile(p.file, "utf8")));
          logger.info(
            `${unapproved.length} of ${pages.length} pages marked as drafts (${unapproved.map((p) => p.page).join(", ") || "none"})`,
          );
          return;
        }
        if (unapproved.length > 0) {
          for (const p of unapproved) console.error(failureLine(p.page, p.reason, root));
          rmSync(out, { recursive: true, force: true });
          throw new Error(`${unapproved.length} page(s) not approved for publication; the build's output was deleted`);
        }
        logger.info(`${pages.length} pages approved`);
      },
    },
  };
}
