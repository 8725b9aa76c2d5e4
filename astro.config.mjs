// @ts-check
import { fileURLToPath } from "node:url";
import { defineConfig } from "astro/config";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { site } from "./src/config/site.ts";
import { siteMarkdown } from "./src/build/markdown/processor.ts";
import { approval } from "./integrations/approval/index.ts";
import { publish } from "./integrations/publish/index.ts";
import { headScript } from "./src/build/head-script.ts";
import { noPrebundling } from "./src/build/no-prebundling.ts";
import { cspHash, ownInlineScripts } from "./src/build/inline-scripts.ts";

/** The islands that load on intent (tooltips), with the icons only they draw in the browser. */
const TOOLTIPS = /[\\/]src[\\/]components[\\/](islands[\\/]tooltips|ui[\\/]icons)[\\/]/;

/**
 * The site's build. `preview`: the reviewers' build (astro.preview.config.mjs), into dist-preview/, with
 * unapproved text marked as a draft instead of failing the build.
 */
export function siteConfig({ preview = false } = {}) {
  return defineConfig({
    site: site.siteUrl,
    // Tests build a second variant (with an analytics script configured) into its own folder.
    outDir: process.env.SITE_OUT_DIR ?? (preview ? "dist-preview" : "dist"),
    // The content layer's cache in the project's own folder, not node_modules/.astro: copies of the
    // project that share node_modules (the studio's preview builds, the integration tests) build at once.
    cacheDir: "./.astro/cache",
    // Routes are /terms-of-service (no slash): one file per page, served by every static host.
    trailingSlash: "never",
    build: { format: "file", inlineStylesheets: "always" },
    compressHTML: true,
    // Astro lists the inline scripts it writes itself (its island runtime, its directives, the page scripts
    // it inlines) with the project's own, in a CSP <meta> on every page: the publish step takes that list as
    // the only scripts to allow, refuses a page with any other inline script, and removes the <meta> (the
    // policy is one header, decision 0011; why a known list: 0042).
    security: { csp: { algorithm: "SHA-256", scriptDirective: { hashes: ownInlineScripts(site.analyticsScriptUrl).map(cspHash) } } },
    // sitemap.xml, robots.txt, the manifest, icons and OG images are endpoints in src/pages (see src/build/seo.ts).
    integrations: [
      react(),
      {
        // Hydrate each island when it has something to do (README, "Architecture").
        name: "client-when",
        hooks: {
          "astro:config:setup": ({ addClientDirective }) => {
            addClientDirective({ name: "when", entrypoint: fileURLToPath(new URL("./src/client/directives/when.ts", import.meta.url)) });
          },
        },
      },
      headScript(site.analyticsScriptUrl),
      noPrebundling(),
      // In this order: drafts are marked before the publish step hashes the pages' inline styles.
      approval({ preview }),
      publish({ preview }),
    ],
    markdown: {
      syntaxHighlight: false,
      // One processor for the pages and the content studio's preview (src/build/markdown/processor.ts).
      processor: siteMarkdown,
    },
    vite: {
      // The reviewers' build makes only what a review shows (src/pages/og/[page].png.ts).
      define: { "import.meta.env.SITE_PREVIEW": JSON.stringify(preview) },
      plugins: [tailwindcss()],
      environments: {
        // The browser build only: grouping the prerender build as well put every layout into one chunk,
        // whose CSS (legal.css with it) Astro then inlined into every page.
        client: {
          build: {
            rolldownOptions: {
              output: {
                // A few long-lived chunks instead of a dozen small ones: React's runtime, the code every island
                // shares, and the tooltip islands (loaded on intent). Radix stays a chunk loaded on intent.
                codeSplitting: {
                  groups: [
                    { name: "react", priority: 3, test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/ },
                    // Folders decide: page scripts (src/client, layouts) stay with the pages that use them; the
                    // tooltip islands and their icons load on intent.
                    {
                      name: "islands",
                      priority: 2,
                      test: (id) => /[\\/]src[\\/](?!layouts[\\/]|client[\\/])/.test(id) && !TOOLTIPS.test(id),
                    },
                    { name: "tooltips", priority: 1, test: TOOLTIPS },
                  ],
                },
              },
            },
          },
        },
      },
    },
    devToolbar: { enabled: false },
  });
}

export default siteConfig();
