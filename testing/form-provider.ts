/** The contact form's provider on local files: routed in a browser, or answered to a capture that records it. */
import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "@playwright/test";
import type { ThirdPartyFetch } from "../lib/records/recording.ts";
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
      const { body, type } = providerFile(url);
      return route.fulfill({ body, contentType: type });
    });
  }
  return requested;
}

/** What the provider answers: its script at the script's address, its form page anywhere else on its hosts. */
function providerFile(url: string) {
  return url === formScriptUrl
    ? { body: fixture("form_embed.js"), type: "text/javascript" }
    : { body: fixture("form.html"), type: "text/html; charset=utf-8" };
}

/** The provider as a capture fetches it to record it (lib/records/recording.ts): its hosts only; anything else is refused. */
export const formProviderFetch: ThirdPartyFetch = async ({ url }) => {
  const { origin } = new URL(url);
  if (origin !== formOrigin && origin !== formFrameOrigin) return undefined;
  const { body, type } = providerFile(url);
  return {
    status: 200,
    statusText: "OK",
    headers: [
      ["Content-Type", type],
      ["Content-Length", String(body.length)],
    ],
    body,
  };
};
