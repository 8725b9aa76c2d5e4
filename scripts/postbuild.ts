/**
 * After `astro build`: checks every page's text against the approval ledger (the production build
 * fails on unapproved text; the preview build marks it as a draft), writes the security headers for
 * every server from the built files, and precompresses text assets (brotli at quality 11 and gzip -9,
 * kept only when smaller).
 */
import { createHash } from "node:crypto";
import { cpSync, rmSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { site } from "../src/config/site.ts";
import { buildFingerprint, outDir, stampFile } from "./build-inputs.ts";
import { contentSecurityPolicy, renderHeadersFile, renderNginxInclude, securityHeaders } from "../src/shared/security-headers.ts";
import { failureLine, markDraft, PREVIEW_TEXTS_FILE, unapprovedPages } from "../integrations/approval/ledger.ts";
import { builtPages, readLedger } from "../integrations/approval/files.ts";
import { HOST_FILES, isBuildInternal, renderRedirectsFile, urlPathOf } from "../src/shared/publish.ts";

const root = new URL("..", import.meta.url).pathname;
const dist = outDir;
/** What a static host publishes (npm run build writes it beside dist/): the build without its internals. */
const staticDir = `${outDir}-static`;
const isMainBuild = !process.env.SITE_OUT_DIR;
/** `npm run build:preview`: unapproved text is built anyway, and marked as a draft. */
const isPreview = process.env.APPROVAL_PREVIEW === "1";

/** Inline <script> (no src) and <style> bodies, as the browser hashes them (exact bytes between the tags). */
function inlineBlocks(html: string): { scripts: string[]; styles: string[] } {
  // Data blocks (JSON-LD) are never executed, so CSP does not apply to them and they need no hash.
  const scripts = [...html.matchAll(/<script\b(?![^>]*\bsrc=)(?![^>]*\btype="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) => m[1] ?? "",
  );
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? "");
  return { scripts, styles };
}

const sha256 = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Astro writes its island style (`astro-island{display:contents}`) where the first island appears, inside
 * <body>, where HTML does not permit <style>. Moving every <style> of the body into the head keeps the page
 * valid (html-validate) and renders the same; the bytes, and so the CSP hashes, do not change.
 */
function hoistBodyStyles(html: string): string {
  const bodyStart = html.search(/<body\b/i);
  const headEnd = html.search(/<\/head>/i);
  if (bodyStart < 0 || headEnd < 0 || headEnd > bodyStart) return html;
  const styles: string[] = [];
  const body = html.slice(bodyStart).replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, (style) => {
    styles.push(style);
    return "";
  });
  if (styles.length === 0) return html;
  return html.slice(0, headEnd) + styles.join("") + html.slice(headEnd, bodyStart) + body;
}

/**
 * Approval before publication. The production build fails on any page whose text is not the approved
 * one, one line per page, and deletes its output so that it cannot be deployed by mistake. The preview
 * build marks those pages instead (before the CSP hashes are taken, so the banner's style is allowed),
 * and leaves every page's text beside them for `npm run approve`.
 */
async function approvalGate(): Promise<string> {
  const pages = builtPages(dist);
  const unapproved = unapprovedPages(pages, readLedger(root));
  if (isPreview) {
    const texts = Object.fromEntries(pages.map((p) => [p.page, { sha256: p.sha256, text: p.text }]));
    await writeFile(join(dist, PREVIEW_TEXTS_FILE), `${JSON.stringify({ pages: texts }, null, 2)}\n`);
    for (const p of unapproved) await writeFile(p.file, markDraft(await readFile(p.file, "utf8")));
    return `${unapproved.length} of ${pages.length} pages marked as drafts (${unapproved.map((p) => p.page).join(", ") || "none"})`;
  }
  if (unapproved.length > 0) {
    for (const p of unapproved) console.error(failureLine(p.page, p.reason));
    rmSync(dist, { recursive: true, force: true });
    process.exit(1);
  }
  return `${pages.length} pages approved`;
}

async function main() {
  const all = await files(dist);
  for (const file of all.filter((f) => f.endsWith(".html"))) {
    const html = await readFile(file, "utf8");
    const hoisted = hoistBodyStyles(html);
    if (hoisted !== html) await writeFile(file, hoisted);
  }
  const approval = await approvalGate();
  const scriptHashes = new Set<string>();
  const styleHashes = new Set<string>();
  for (const file of all.filter((f) => f.endsWith(".html"))) {
    const { scripts, styles } = inlineBlocks(await readFile(file, "utf8"));
    scripts.forEach((s) => scriptHashes.add(sha256(s)));
    styles.forEach((s) => styleHashes.add(sha256(s)));
  }
  const csp = contentSecurityPolicy({
    scriptHashes: [...scriptHashes].sort(),
    styleHashes: [...styleHashes].sort(),
    formEmbedScriptUrl: site.formEmbedScriptUrl,
    formFrameBaseUrl: site.formFrameBaseUrl,
    analyticsScriptUrl: site.analyticsScriptUrl,
    statusUrl: site.statusUrl,
  });
  // Static hosts and nginx in production speak TLS, so they also send HSTS.
  const urlPaths = all
    .map((file) => relative(dist, file).replace(/\\/g, "/"))
    .filter((file) => !isBuildInternal(file))
    .map(urlPathOf);
  await writeFile(join(dist, "_headers"), renderHeadersFile(securityHeaders(csp, { tls: true }), urlPaths));
  await writeFile(join(dist, "_redirects"), renderRedirectsFile());
  // Only the main build writes the nginx include (a test variant must not overwrite it).
  const nginxDir = join(root, "deploy", "nginx", "generated");
  if (isMainBuild) {
    await mkdir(nginxDir, { recursive: true });
    await writeFile(join(nginxDir, "security-headers.conf"), renderNginxInclude(securityHeaders(csp, { tls: true })));
  }

  let compressed = 0;
  for (const file of all.filter((f) => /\.(html|js|css|svg|xml|txt|json|webmanifest)$/.test(f))) {
    const body = await readFile(file);
    if (body.length < 256) continue;
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) await writeFile(`${file}.br`, br);
    if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
    compressed++;
  }
  rmSync(staticDir, { recursive: true, force: true });
  cpSync(dist, staticDir, { recursive: true, filter: (source) => !isBuildInternal(relative(dist, source).replace(/\\/g, "/")) });
  // Last, so that a build stopped halfway is never taken for a current one.
  await writeFile(stampFile, buildFingerprint());
  console.log(
    `postbuild: ${approval}; ${scriptHashes.size} script and ${styleHashes.size} style hashes in the CSP; ` +
      `${compressed} files precompressed; wrote ${relative(root, join(dist, "_headers"))}` +
      (isMainBuild ? ` and ${relative(root, nginxDir)}/security-headers.conf` : "") +
      `; ${relative(root, staticDir)}/ for static hosts (${HOST_FILES.join(", ")}, no precompressed copies)`,
  );
}

await main();
