import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "@playwright/test";
import { siteDefaults } from "../src/config/site.ts";

const fixture = (name: string) => readFileSync(new URL(`../tests/fixtures/form-provider/${name}`, import.meta.url));

export const formScriptUrl = siteDefaults.formEmbedScriptUrl;
export const formOrigin = new URL(siteDefaults.formEmbedScriptUrl).origin;
export const formFrameOrigin = new URL(siteDefaults.formFrameBaseUrl).origin;

type Mode = "fixture" | "abort" | "hang";

/**
 * Routes the form provider's hosts (and nothing else leaves the machine): "fixture" serves local files,
 * "abort" fails every request, "hang" never answers. Returns the URLs the page asked for.
 */
export async function routeFormProvider(target: Page | BrowserContext, mode: Mode = "fixture"): Promise<string[]> {
  const requested: string[] = [];
  for (const host of new Set([formOrigin, formFrameOrigin])) {
    await target.route(`${host}/**`, async (route) => {
      const url = route.request().url();
      requested.push(url);
      if (mode === "abort") return route.abort("failed");
      if (mode === "hang") return; // never fulfilled
      if (url === formScriptUrl) return route.fulfill({ body: fixture("form_embed.js"), contentType: "text/javascript" });
      return route.fulfill({ body: fixture("form.html"), contentType: "text/html; charset=utf-8" });
    });
  }
  return requested;
}
