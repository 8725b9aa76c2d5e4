/**
 * A copy of a build with only some of its pages: every other file as built (styles, scripts, images,
 * headers), the HTML of the pages not kept left out with their precompressed copies. For the suites
 * where a capture's mechanics are the subject (storage, locks, tokens), not what it holds of each page:
 * a capture visits every page of the build it is given, about a second each on a quiet machine, so two
 * pages and the 404 take 6 s where the whole site takes 16 s (`npm run records:capture -- --dist`,
 * 2026-11-29). The pages kept are as built, so their approvals hold.
 */
import { cpSync } from "node:fs";
import { relative } from "node:path";
import { pageOfHtmlFile } from "../../lib/pages.ts";

/** The pages a capture takes where only its mechanics are tested: two legal pages and the 404. */
export const FEW_PAGES = ["/privacy-policy", "/cookie-policy", "/404"];

/** Copies `dist` into `into` with only `pages` (site paths: "/privacy-policy", "/404") of its HTML; returns `into`. */
export function smallDist(dist: string, pages: string[], into: string): string {
  cpSync(dist, into, {
    recursive: true,
    filter: (source) =>
      !/\.html(\.br|\.gz)?$/.test(source) || pages.includes(pageOfHtmlFile(relative(dist, source.replace(/\.(br|gz)$/, "")))),
  });
  return into;
}
