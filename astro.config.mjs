// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";
import sitemap from "@astrojs/sitemap";
import tailwindcss from "@tailwindcss/vite";
import { site } from "./src/config/site.ts";
import { remarkSiteTokens } from "./src/lib/remark-site-tokens.ts";

export default defineConfig({
  site: site.siteUrl,
  // Tests build a second variant (with an analytics script configured) into its own folder.
  outDir: process.env.SITE_OUT_DIR ?? "dist",
  // Routes are /terms-of-service (no slash): one file per page, served by every static host.
  trailingSlash: "never",
  build: { format: "file", inlineStylesheets: "always" },
  compressHTML: true,
  integrations: [react(), sitemap({ filter: (page) => !/\/404\/?$/.test(page) })],
  markdown: { syntaxHighlight: false, remarkPlugins: [remarkSiteTokens] },
  vite: {
    plugins: [tailwindcss()],
    build: {
      rolldownOptions: {
        output: {
          // Two long-lived chunks instead of a dozen small ones: React's runtime, and our island code.
          // Fewer requests and better compression; Radix stays a separate chunk loaded on intent.
          codeSplitting: {
            groups: [
              { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/ },
              { name: "islands", test: /[\\/]src[\\/]/ },
            ],
          },
        },
      },
    },
  },
  devToolbar: { enabled: false },
});
