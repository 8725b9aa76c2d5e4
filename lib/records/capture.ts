/**
 * One capture of the site (SEA Rule 17a-4(b), FINRA Rule 2210(b)(4)), written into a local folder that
 * `npm run records:capture` then timestamps and puts in the archive store. Every page is visited in Chromium
 * through a recording proxy: one WARC (every request and response exactly as served, headers included,
 * the 404 page of an unknown path, and the answers of the third parties a page asks for, such as the
 * contact form's provider, when the capture is given a way to fetch them), one PDF per page (Chromium's print, cookie banner answered,
 * popup not shown), and manifest.json (kind, commit, time, pages with the hashes of their HTML and text
 * beside the approved text's, the approvals in force with their principal and editors, the hash of
 * every other file). The build itself (`ownBuild`: our server over `dist`, which the caller starts, e.g.
 * with `withSiteServer` of server/app.ts) is refused when its text is not the approved one; a deployed
 * origin is recorded as it is, drift included: the record is of what the site said.
 *
 * Chromium is driven by playwright-core, Playwright's browser library without its test runner (a
 * production install has no test framework): its clock holds the page's timers still while the banner
 * is answered and the PDF printed, so the popup's 4 s never comes however slow the host is.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { site } from "../../src/config/site.ts";
import { builtPages, readLedger } from "../approval/files.ts";
import { destinationsOf, extractPageText, pageTextHash, TEXT_RULE } from "../approval/text.ts";
import { sha256Hex } from "../hash.ts";
import { chromeArgs, findChrome } from "../chrome.ts";
import { select } from "hast-util-select";
import { toText } from "hast-util-to-text";
import { parseHtml } from "../html.ts";
import { flatStem } from "../pages.ts";
import { approvalsAt, publishedAt } from "./approvals.ts";
import { projectReviews } from "../approval/review-report.ts";
import type { PageReview } from "../approval/reviews.ts";
import {
  decodeBody,
  filesUnder,
  folderName,
  hashFile,
  MANIFEST,
  MANIFEST_FORMAT,
  MANIFEST_SHA256,
  manifestSchema,
  pageTitle,
  UNKNOWN_PATH,
  type CaptureKind,
  type Manifest,
  type ManifestReview,
} from "./manifest.ts";
import { header, recordingProxy, thirdPartyRecorder, writeWarc, type ThirdPartyFetch } from "./recording.ts";

/** A first-time visitor who answers the cookie banner, before the popup's 4 s: what is printed is the page itself. */
export async function visit(page: Page, url: string) {
  await page.clock.install({ time: new Date("2025-01-15T12:00:00Z") });
  await page.clock.pauseAt(new Date("2025-01-15T12:00:01Z"));
  const response = await page.goto(url, { waitUntil: "load" });
  // 1.5 s of page time: still short of the popup's 4 s (its island hydrates at 2.5 s).
  await page.clock.runFor(1500);
  const banner = page.getByRole("region", { name: "Cookie consent" });
  for (let step = 0; step < 10 && (await banner.isVisible()); step++) {
    const reject = banner.getByRole("button", { name: /reject/i });
    await ((await reject.count()) ? reject : banner.getByRole("button", { name: /close/i }))
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    if (!(await banner.isVisible())) break;
    // Not hydrated yet: a little more page time (the popup's 4 s stays out of reach).
    await page.clock.runFor(100);
  }
  if (await banner.isVisible()) throw new Error(`${url}: the cookie banner could not be closed`);
  if (await page.getByRole("dialog").isVisible()) throw new Error(`${url}: a dialog is open; the PDF would show it`);
  await page.waitForLoadState("networkidle");
  return response?.status() ?? 0;
}

/**
 * After the PDF: what a visitor's browser loads later, so that a replay has it too. Scrolling through
 * the page hydrates the islands that wait to be seen, and a pointer on a tooltip loads its code. A
 * third-party request this sets off (the contact form near the end) is refused and listed.
 */
async function loadTheRest(page: Page) {
  // Page time to 3.5 s: the popup's island hydrates at 2.5 s (its code is recorded), the popup itself not before 4 s.
  const elapsed = await page.evaluate(() => performance.now());
  if (elapsed < 3500) await page.clock.runFor(Math.round(3500 - elapsed));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 800) {
    await page.mouse.wheel(0, 800);
    // A moment at each position, so that intersection observers see what passes by (page timers are paused).
    await page.waitForTimeout(50);
  }
  await page.waitForLoadState("networkidle");
  // Each island that hydrates on intent (its tooltips) loads its code when a pointer comes to it.
  for (const island of await page.locator("astro-island").all()) {
    const trigger = island.locator("[data-tip-trigger]").first();
    if ((await trigger.count()) === 0) continue;
    await trigger.scrollIntoViewIfNeeded();
    await trigger.hover().catch(() => undefined);
    await page.waitForLoadState("networkidle");
  }
  // The contact form as a visitor loads it (the banner was answered with Reject All: a click), so that a
  // replay has the provider's script and form where they were recorded, and its refusal where they were not.
  const load = page.locator('[data-form-state="needs-click"] button');
  if ((await load.count()) > 0) {
    await load.first().click();
    // Loaded is the frame's load and the script's together; failed, the script refused: nothing more comes.
    await page.locator('[data-form-state="loaded"], [data-form-state="failed"]').first().waitFor();
  }
}

/** The page as people name it: its main heading (the landing page's is a slogan, and the 404's a message). */
function titleOf(path: string, html: string): string {
  if (path === "/" || path === "/404") return pageTitle({ path });
  const heading = select("main h1", parseHtml(html)) ?? select("h1", parseHtml(html));
  return (heading && toText(heading).trim().replace(/\s+/g, " ")) || pageTitle({ path });
}

/**
 * The captured pages' reviews on the capture's day in the firm's zone (the manifest's `reviews`); none
 * when the project keeps no review policy, or it does not parse (its build would have said so).
 */
function reviewsOf(root: string, at: Date, pages: string[]): { reviews?: ManifestReview[] } {
  let reviews: PageReview[];
  try {
    reviews = projectReviews(root, at).reviews;
  } catch {
    return {};
  }
  return {
    reviews: reviews
      .filter((r) => pages.includes(r.page))
      .map((r) => ({
        page: r.page,
        lastReviewed: r.lastDay,
        reviewedBy: r.review?.by ?? null,
        ...(r.since ? { countedFrom: r.since } : {}),
        due: r.dueDay,
        status: r.status,
      })),
  };
}

function git(root: string, ...args: string[]): string {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

export interface CaptureOptions {
  /** The build whose pages are visited and whose approved text they must carry. */
  dist: string;
  /** The checkout the build was made from: its commit, its ledger, its history. */
  root: string;
  /** Where the capture's folder is made (a staging folder; the store gets it afterwards). */
  outRoot: string;
  kind: CaptureKind;
  /** Where the site answers: a deployed site, or our own server over `dist` on loopback (`ownBuild`). */
  origin: string;
  /**
   * The origin is our own server over this checkout's `dist`: its text must be the approved one, and its
   * answers are recorded under the recording proxy's address (the server's port is the caller's passing one).
   */
  ownBuild?: boolean;
  port?: number;
  now?: Date;
  /** The answers of the third parties a page asks for (the form provider), recorded with the site's; without it they are refused. */
  thirdParty?: ThirdPartyFetch;
}

export interface Capture {
  name: string;
  folder: string;
  manifest: Manifest;
  manifestSha256: string;
  records: number;
  seconds: number;
}

export async function capture(options: CaptureOptions): Promise<Capture> {
  const { dist, root, port = 0, ownBuild = false } = options;
  const started = options.now ?? new Date();
  const clock = performance.now();
  const name = folderName(started);
  const folder = join(options.outRoot, name);
  if (existsSync(folder)) throw new Error(`${folder} already exists`);
  const commit = git(root, "rev-parse", "HEAD");
  const uncommittedChanges = git(root, "status", "--porcelain") !== "";
  const ledger = readLedger(root);
  const built = builtPages(dist);
  const pages = built.map(({ page }) => page);

  const proxy = await recordingProxy({ upstream: options.origin, port, recordAs: ownBuild ? "proxy" : "upstream" });
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  const thirdParty = thirdPartyRecorder(options.thirdParty);
  const visited: Array<{ path: string; url: string; status: number; pdf: string }> = [];
  try {
    mkdirSync(join(folder, "pdf"), { recursive: true });
    for (const path of pages) {
      const visitPath = path === "/404" ? UNKNOWN_PATH : path;
      // A fresh context per page: no cache or storage carried over, so every page's own requests are recorded.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.route((target) => target.origin !== proxy.origin, thirdParty.answer);
      const page = await context.newPage();
      const status = await visit(page, `${proxy.origin}${visitPath}`);
      const pdf = `pdf/${flatStem(path)}.pdf`;
      await page.pdf({ path: join(folder, pdf), format: "Letter", printBackground: true, tagged: true, outline: true });
      await loadTheRest(page);
      await context.close();
      visited.push({ path, url: proxy.recordedUrl(visitPath), status, pdf });
    }
  } finally {
    await browser.close().catch(() => undefined);
    await proxy.close();
  }
  const browserVersion = `Chromium ${browser.version()}`;

  if (proxy.errors.length > 0) throw new Error(`the capture is not exact:\n${proxy.errors.join("\n")}`);
  const exchanges = [...proxy.exchanges.values(), ...thirdParty.exchanges.values()];
  const manifestPages = visited.map(({ path, url, status, pdf }) => {
    const exchange = proxy.exchanges.get(url);
    if (!exchange) throw new Error(`${url}: no response was recorded`);
    const html = decodeBody(exchange.response.body, header(exchange.response.headers, "content-encoding"));
    const text = extractPageText(html.toString("utf8"));
    const textSha256 = pageTextHash(text);
    const approvedSha256 = ledger.pages[path]?.sha256 ?? null;
    // The build's gate makes this impossible for a current dist/; a stale one is no record of anything.
    if (ownBuild && approvedSha256 !== textSha256)
      throw new Error(`${path}: the built text is not the approved one; run npm run build first`);
    // Named as the build names it: a drifted page keeps the name people know it by.
    const title = titleOf(path, readFileSync(built.find((b) => b.page === path)!.file, "utf8"));
    return { path, url, status, title, htmlSha256: sha256Hex(html), textSha256, approvedSha256, pdf, links: destinationsOf(text) };
  });

  const warc = `site-${name}.warc.gz`;
  await writeWarc(join(folder, warc), exchanges, {
    software: "warcio.js (npm run records:capture)",
    format: "WARC File Format 1.1",
    isPartOf: site.siteUrl,
    description:
      `Production build of ${site.siteUrl} at commit ${commit}, ` +
      `${ownBuild ? "served by the project's server (server/)" : `as ${options.origin} served it`}, captured in ${browserVersion}`,
    "x-commit": commit,
  });

  const withPublished = (published: ReturnType<typeof publishedAt>) => (published ? { published } : {});
  const manifest = manifestSchema.parse({
    format: MANIFEST_FORMAT,
    kind: options.kind,
    textRule: TEXT_RULE,
    commit,
    uncommittedChanges,
    createdAt: started.toISOString(),
    origin: ownBuild ? proxy.origin : options.origin,
    siteUrl: site.siteUrl,
    browser: browserVersion,
    warc,
    pages: manifestPages,
    approvals: approvalsAt(
      root,
      commit,
      manifestPages.map(({ path }) => path),
      ledger,
    ),
    ...withPublished(publishedAt(root, commit)),
    ...reviewsOf(
      root,
      started,
      manifestPages.map(({ path }) => path),
    ),
    blockedRequests: [...thirdParty.refused].sort(),
    files: filesUnder(folder).map((path) => ({ path, bytes: statSync(join(folder, path)).size, sha256: hashFile(join(folder, path)) })),
  });
  const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(folder, MANIFEST), manifestJson);
  const manifestSha256 = sha256Hex(manifestJson);
  writeFileSync(join(folder, MANIFEST_SHA256), `${manifestSha256}  ${MANIFEST}\n`);
  return { name, folder, manifest, manifestSha256, records: exchanges.length * 2 + 1, seconds: (performance.now() - clock) / 1000 };
}
