import type { AstroIntegration } from "astro";
import { cpSync, rmSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { site } from "../../src/config/site.ts";
import { HOST_FILES, isBuildInternal, renderRedirectsFile, urlPathOf } from "../../src/shared/publish.ts";
import { contentSecurityPolicy, renderHeadersFile, renderNginxInclude, securityHeaders } from "../../src/shared/security-headers.ts";
import { buildFingerprint, STAMP_FILE } from "../../lib/fingerprint.ts";
import { sha256Base64 } from "../../lib/hash.ts";
import { hoistBodyStyles, inlineBlocks, parseHtml, takeCspMeta } from "../../lib/html.ts";
import { pageOfHtmlFile } from "../../lib/pages.ts";
import { precompress } from "./compress.ts";

export interface PublishOptions {
  /** The reviewers' build (the approval integration marks its drafts); part of the build's fingerprint. */
  preview: boolean;
}

const posix = (path: string) => path.replace(/\\/g, "/");

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** One line naming the page of an inline script that is not on the known list, and how it begins. */
export function unknownScriptLine(file: string, script: string): string {
  const start = script.trim().replace(/\s+/g, " ");
  return (
    `publish: ${pageOfHtmlFile(file)} (${file}) has an inline script the project does not write ` +
    `("${start.length > 60 ? `${start.slice(0, 57)}…` : start}"): only the head script, the 404 page's and Astro's own ` +
    "are allowed by the CSP (src/build/inline-scripts.ts); move its code into a module or the head script"
  );
}

/**
 * What `astro build` does once the pages are written (after the approval integration): every inline
 * script the project writes (and no other: the build fails naming the page) and every inline style
 * allowed by its hash in the CSP; the headers for each kind of server (`_headers` and
 * `_redirects` for static hosts, the nginx include for the main build); precompressed copies and the
 * folder a static host publishes (`<outDir>-static/`, without the build's internals), neither for a
 * preview; the fingerprint last.
 */
export function publish({ preview }: PublishOptions): AstroIntegration {
  let root = process.cwd();
  return {
    name: "publish",
    hooks: {
      "astro:config:done": ({ config }) => {
        root = fileURLToPath(config.root);
      },
      "astro:build:done": async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const all = await filesUnder(out);
        const scriptHashes = new Set<string>();
        const styleHashes = new Set<string>();
        const unknown: string[] = [];
        for (const file of all.filter((f) => f.endsWith(".html"))) {
          const built = await readFile(file, "utf8");
          // Astro's list of the inline scripts it and the project write (astro.config.mjs, `security.csp`).
          const { html: withoutMeta, scriptHashes: known } = takeCspMeta(built);
          const html = hoistBodyStyles(withoutMeta);
          if (html !== built) await writeFile(file, html);
          const { scripts, styles } = inlineBlocks(parseHtml(html));
          for (const script of scripts) {
            const hash = `sha256-${sha256Base64(script)}`;
            if (known.has(hash)) scriptHashes.add(hash);
            else unknown.push(unknownScriptLine(posix(relative(out, file)), script));
          }
          for (const style of styles) styleHashes.add(`sha256-${sha256Base64(style)}`);
        }
        // Only the project's own scripts get a hash: any other inline script (written by hand into a page or
        // a component) fails the build, and the output is deleted so that it cannot be deployed by mistake.
        if (unknown.length > 0) {
          for (const line of unknown) console.error(line);
          rmSync(out, { recursive: true, force: true });
          throw new Error(`${unknown.length} inline script(s) the project does not write; the build's output was deleted`);
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
        const headers = securityHeaders(csp, { tls: true });
        const urlPaths = all
          .map((file) => posix(relative(out, file)))
          .filter((file) => !isBuildInternal(file))
          .map(urlPathOf);
        await writeFile(join(out, "_headers"), renderHeadersFile(headers, urlPaths));
        await writeFile(join(out, "_redirects"), renderRedirectsFile());
        // Only the main build writes the nginx include: a preview or test variant must not overwrite it.
        const isMainBuild = !preview && posix(relative(root, out)) === "dist";
        if (isMainBuild) {
          await mkdir(join(root, "deploy/nginx/generated"), { recursive: true });
          await writeFile(join(root, "deploy/nginx/generated/security-headers.conf"), renderNginxInclude(headers));
        }
        // A preview is served on loopback to reviewers and never published: no precompressed copies (about
        // 1.2 s of a preview build's 10 s of CPU, and the studio makes one for every change) and no folder
        // for a static host.
        const compressed = preview ? 0 : await precompress(all);
        const staticDir = `${out.replace(/[\\/]$/, "")}-static`;
        rmSync(staticDir, { recursive: true, force: true });
        if (!preview) cpSync(out, staticDir, { recursive: true, filter: (source) => !isBuildInternal(posix(relative(out, source))) });
        // Last, so that a build stopped halfway is never taken for a current one.
        await writeFile(join(out, STAMP_FILE), buildFingerprint(root, { preview }));
        logger.info(
          `${scriptHashes.size} script and ${styleHashes.size} style hashes in the CSP; ` +
            (preview ? "a preview: nothing precompressed, no folder for static hosts; " : `${compressed} files precompressed; `) +
            `_headers and _redirects` +
            (isMainBuild ? ", deploy/nginx/generated/security-headers.conf" : "") +
            (preview ? "" : `; ${posix(relative(root, staticDir))}/ for static hosts (${HOST_FILES.join(", ")}, no precompressed copies)`),
        );
      },
    },
  };
}
