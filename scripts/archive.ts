/**
 * `npm run archive`: a web archive of the production build as published (SEA Rule 17a-4(b), FINRA
 * Rule 2210(b)(4)). Serves dist/ with the project's own server, visits every page in Chromium through
 * a recording proxy, and writes archive/<UTC time>/ with one WARC (every request and response exactly
 * as served, headers included, and the 404 page of an unknown path), one PDF per page (Chromium's
 * print, cookie banner answered, popup not shown), and manifest.json (commit, time, pages with the
 * hashes of their HTML and approved text, the approvals, and the hash of every other file).
 *
 * Options: `--out DIR` (default archive/), `--dist DIR` (default dist/), `--origin URL`: archive the
 * site as that origin serves it (the deployed site, e.g. https://www.example.com, or
 * `wrangler pages dev dist-static`), its answers recorded under its own URLs with the host's headers;
 * the pages visited and the approved text they must carry still come from the build in `--dist`.
 * ARCHIVE_PORT sets the port the browser sees (default: any free port). Nothing else leaves the
 * machine: every request to another origin is refused and listed in the manifest.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { createSiteServer } from "../server/app.ts";
import { site } from "../src/config/site.ts";
import { builtPages, readLedger } from "../integrations/approval/files.ts";
import { extractPageText, pageTextHash } from "../integrations/approval/text.ts";
import { chromeArgs, findChrome } from "./lib/chrome.ts";
import { projectRoot } from "./build-inputs.ts";
import {
  decodeBody,
  filesUnder,
  folderName,
  hashFile,
  MANIFEST,
  MANIFEST_SHA256,
  manifestSchema,
  pageFileStem,
  UNKNOWN_PATH,
  type Manifest,
} from "../lib/records/manifest.ts";
import { sha256Hex } from "../integrations/hash.ts";
import { header, recordingProxy, writeWarc } from "../lib/records/recording.ts";

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
}

function git(...args: string[]): string {
  const result = spawnSync("git", args, { cwd: projectRoot, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

export async function createArchive(options: { dist: string; outRoot: string; port?: number; origin?: string }) {
  const { dist, outRoot, port = 0 } = options;
  const started = new Date();
  const folder = join(outRoot, folderName(started));
  if (existsSync(folder)) throw new Error(`${folder} already exists`);
  const commit = git("rev-parse", "HEAD");
  const uncommittedChanges = git("status", "--porcelain") !== "";
  const ledger = readLedger(projectRoot);
  const pages = builtPages(dist).map(({ page }) => page);

  // Our own server over dist/, unless a deployed origin is archived.
  const siteServer = options.origin ? undefined : createSiteServer({ root: dist });
  if (siteServer) await new Promise<void>((done) => siteServer.listen(0, "127.0.0.1", done));
  const upstream = options.origin ?? `http://127.0.0.1:${(siteServer?.address() as AddressInfo).port}`;
  const proxy = await recordingProxy({ upstream, port, recordAs: options.origin ? "upstream" : "proxy" });
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  const blockedRequests = new Set<string>();
  const visited: Array<{ path: string; url: string; status: number; pdf: string }> = [];
  try {
    mkdirSync(join(folder, "pdf"), { recursive: true });
    for (const path of pages) {
      const visitPath = path === "/404" ? UNKNOWN_PATH : path;
      const url = `${proxy.origin}${visitPath}`;
      // A fresh context per page: no cache or storage carried over, so every page's own requests are recorded.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.route(
        (target) => target.origin !== proxy.origin,
        (route) => {
          blockedRequests.add(route.request().url());
          return route.abort("blockedbyclient");
        },
      );
      const page = await context.newPage();
      const status = await visit(page, url);
      const pdf = `pdf/${pageFileStem(path)}.pdf`;
      await page.pdf({ path: join(folder, pdf), format: "Letter", printBackground: true, tagged: true, outline: true });
      await loadTheRest(page);
      await context.close();
      visited.push({ path, url: proxy.recordedUrl(visitPath), status, pdf });
    }
  } finally {
    await browser.close().catch(() => undefined);
    await proxy.close();
    await new Promise<void>((done) => {
      if (!siteServer) return done();
      siteServer.close(() => done());
      siteServer.closeAllConnections();
    });
  }
  const browserVersion = `Chromium ${browser.version()}`;

  if (proxy.errors.length > 0) throw new Error(`the capture is not exact:\n${proxy.errors.join("\n")}`);
  const exchanges = [...proxy.exchanges.values()];
  const manifestPages = visited.map(({ path, url, status, pdf }) => {
    const exchange = proxy.exchanges.get(url);
    if (!exchange) throw new Error(`${url}: no response was recorded`);
    const html = decodeBody(exchange.response.body, header(exchange.response.headers, "content-encoding"));
    const textSha256 = pageTextHash(extractPageText(html.toString("utf8")));
    const approval = ledger.pages[path];
    // The build's gate makes this impossible for a current dist/; a stale one must not be archived as approved.
    if (approval?.sha256 !== textSha256)
      throw new Error(
        `${path}: the served text is not the approved one; ${options.origin ? "is this build the one deployed?" : "run npm run build first"}`,
      );
    return { path, url, status, htmlSha256: sha256Hex(html), textSha256, pdf };
  });

  const warc = `site-${folderName(started)}.warc.gz`;
  await writeWarc(join(folder, warc), exchanges, {
    software: "warcio.js (npm run archive)",
    format: "WARC File Format 1.1",
    isPartOf: site.siteUrl,
    description:
      `Production build of ${site.siteUrl} at commit ${commit}, ` +
      `${options.origin ? `as ${options.origin} served it` : "served by the project's server (server/)"}, captured in ${browserVersion}`,
    "x-commit": commit,
  });

  const manifest: Manifest = manifestSchema.parse({
    format: "site-archive/1",
    commit,
    uncommittedChanges,
    createdAt: started.toISOString(),
    origin: options.origin ?? proxy.origin,
    siteUrl: site.siteUrl,
    browser: browserVersion,
    warc,
    pages: manifestPages,
    approvals: manifestPages.map(({ path }) => {
      const { sha256, approvedBy, approvedOn } = ledger.pages[path]!;
      return { page: path, sha256, approvedBy, approvedOn };
    }),
    blockedRequests: [...blockedRequests].sort(),
    files: filesUnder(folder).map((path) => ({ path, bytes: statSync(join(folder, path)).size, sha256: hashFile(join(folder, path)) })),
  });
  const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(folder, MANIFEST), manifestJson);
  const manifestSha256 = sha256Hex(manifestJson);
  writeFileSync(join(folder, MANIFEST_SHA256), `${manifestSha256}  ${MANIFEST}\n`);
  return { folder, manifest, manifestSha256, records: exchanges.length * 2 + 1, seconds: (Date.now() - started.getTime()) / 1000 };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" }, dist: { type: "string" }, origin: { type: "string" } } });
  const dist = resolve(values.dist ?? join(projectRoot, "dist"));
  const outRoot = resolve(values.out ?? join(projectRoot, "archive"));
  try {
    const origin = values.origin === undefined ? undefined : new URL(values.origin).origin;
    const result = await createArchive({ dist, outRoot, port: Number(process.env.ARCHIVE_PORT ?? 0), origin });
    const shown = relative(process.cwd(), result.folder) || result.folder;
    for (const file of result.manifest.files) console.log(`  ${file.path}  ${file.bytes.toLocaleString("en-US")} B`);
    console.log(
      `archive: wrote ${shown}/ in ${result.seconds.toFixed(1)} s: ${result.manifest.pages.length} pages, ` +
        `${result.records} WARC records, ${result.manifest.files.length} files and ${MANIFEST}` +
        (result.manifest.blockedRequests.length ? `; ${result.manifest.blockedRequests.length} third-party requests refused` : ""),
    );
    if (result.manifest.uncommittedChanges)
      console.log("archive: the work tree had uncommitted changes; archive a clean commit for the record");
    console.log(`archive: ${MANIFEST} sha256 ${result.manifestSha256}`);
    // In GitHub Actions, the next steps (archive:verify, archive:upload) read the folder and the hash from here.
    if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `folder=${shown}\nmanifest-sha256=${result.manifestSha256}\n`);
    console.log(
      `archive: keep that hash with the record; check the folder with npm run archive:verify -- ${shown} --manifest-sha256 ${result.manifestSha256}`,
    );
  } catch (error) {
    console.error(`archive: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
