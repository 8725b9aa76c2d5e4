/**
 * One table, three servers: the same serving checks against our server (dist/), the production nginx
 * configuration (dist/) and Cloudflare's own runtime (`wrangler pages dev` in workerd, over dist-static/,
 * the folder the README says to publish on a static host). Where a host cannot behave as our server
 * does, its row says so with the reason, and checks what it does instead: nothing is left unchecked.
 * nginx missing, or wrangler unable to start: skipped locally with one line naming the cause; with
 * CI=true, one failing test with that line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNginx, type LocalNginx } from "../../testing/nginx-local.ts";
import { startWrangler, type LocalEdge } from "../../testing/wrangler-local.ts";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { projectRoot } from "../../lib/root.ts";
import { NOT_FOUND_REDIRECT } from "../../src/shared/publish.ts";
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, parseHeadersFile } from "../../src/shared/security-headers.ts";
import { dist, distFile, expectedSecurityHeaders, requireBuild, send, startServer, type Answer, type Running } from "./support.ts";
import { chromiumForBlock, openWatchingCsp } from "../support/chromium.ts";

requireBuild();
export const staticDir = `${dist}-static`;
if (!existsSync(join(staticDir, "_headers"))) throw new Error(`${staticDir} is not built: run \`npm run build\``);

/** The full published set (with HSTS): what a TLS deployment sends. Our plain-HTTP server leaves HSTS out. */
const published = parseHeadersFile(readFileSync(join(dist, "_headers"), "utf8"));
const astroFiles = readdirSync(join(dist, "_astro"));
/** A hashed script with precompressed copies beside it in dist/. */
const asset = `/_astro/${astroFiles.find((f) => f.endsWith(".js") && astroFiles.includes(`${f}.br`))}`;
const notFoundPage = distFile("/404.html");
const PAGES = ["/", ...documentFiles(projectRoot).map(({ slug }) => `/${slug}`)];
const fileOf = (path: string) => (path === "/" ? "/index.html" : `${path}.html`);

type HostName = "ours" | "nginx" | "cloudflare";
interface Host {
  name: HostName;
  origin: string;
  /** The policy headers it must send on every answer. */
  policy: Record<string, string>;
}

/** Every policy header, exactly, and nothing that widens it. */
function expectPolicy(a: Answer, host: Host) {
  for (const [name, value] of Object.entries(host.policy)) expect(a.headers[name.toLowerCase()], `${host.name}: ${name}`).toBe(value);
  if (host.name === "ours") expect(a.headers["strict-transport-security"]).toBeUndefined();
  // Cloudflare Pages adds "Access-Control-Allow-Origin: *" unless _headers detaches it.
  expect(a.headers["access-control-allow-origin"], "Access-Control-Allow-Origin").toBeUndefined();
  expect(a.headers["x-powered-by"]).toBeUndefined();
}
/** Exactly one Cache-Control, with exactly this value (several rules' values would be joined by a comma). */
const expectCache = (a: Answer, value: string) => expect(a.headers["cache-control"]).toBe(value);
const expectNotFoundPage = (a: Answer, host: Host) => {
  expect(a.status).toBe(404);
  expect(a.body.equals(notFoundPage)).toBe(true);
  expectPolicy(a, host);
};

interface Check {
  name: string;
  run: (host: Host) => Promise<void>;
  /** Where a host cannot do what our server does: why, and what it does instead (checked). */
  differs?: Partial<Record<HostName, { why: string; run: (host: Host) => Promise<void> }>>;
}

const checks: Check[] = [
  ...PAGES.map((path): Check => ({
    name: `${path}: 200, the page's bytes, every policy header, one Cache-Control that revalidates`,
    run: async (host) => {
      const a = await send(host.origin, path);
      expect(a.status).toBe(200);
      expect(a.headers["content-type"]).toMatch(/^text\/html/);
      expect(a.body.equals(distFile(fileOf(path)))).toBe(true);
      expectCache(a, CACHE_REVALIDATE);
      expectPolicy(a, host);
    },
  })),
  {
    name: "a hashed asset: immutable for a year, and nothing else in its Cache-Control",
    run: async (host) => {
      const a = await send(host.origin, asset);
      expect(a.status).toBe(200);
      expect(a.body.equals(distFile(asset))).toBe(true);
      expectCache(a, CACHE_IMMUTABLE);
      expectPolicy(a, host);
    },
  },
  ...["/favicon.ico", "/og/home.png", "/robots.txt", "/sitemap.xml", "/manifest.webmanifest"].map((path): Check => ({
    name: `${path}: 200 and one Cache-Control that revalidates`,
    run: async (host) => {
      const a = await send(host.origin, path);
      expect(a.status).toBe(200);
      expect(a.body.equals(distFile(path))).toBe(true);
      expectCache(a, CACHE_REVALIDATE);
      expectPolicy(a, host);
    },
  })),
  {
    name: "an unknown path: the not-found page with status 404",
    run: async (host) => {
      const a = await send(host.origin, "/no-such-page");
      expectNotFoundPage(a, host);
      expectCache(a, CACHE_REVALIDATE);
    },
    differs: {
      cloudflare: {
        why: "a not-found answer gets the platform's own Cache-Control (no-store); _headers rules apply to files",
        run: async (host) => {
          const a = await send(host.origin, "/no-such-page");
          expectNotFoundPage(a, host);
          expectCache(a, "no-store");
        },
      },
    },
  },
  {
    name: "/404 (the not-found page by name): status 404, no soft 404",
    run: async (host) => expectNotFoundPage(await send(host.origin, "/404"), host),
    differs: {
      cloudflare: {
        why: "Pages needs the page at /404.html and serves it at /404 with 200; _redirects cannot answer 404, so /404 is sent on (301) to a path that does not exist",
        run: async (host) => {
          const a = await send(host.origin, NOT_FOUND_REDIRECT.from);
          expect(a.status).toBe(NOT_FOUND_REDIRECT.status);
          expect(a.headers.location).toBe(NOT_FOUND_REDIRECT.to);
          expectCache(a, CACHE_REVALIDATE);
          expectPolicy(a, host);
          expectNotFoundPage(await send(host.origin, NOT_FOUND_REDIRECT.to), host);
        },
      },
    },
  },
  {
    name: "/404.html: status 404",
    run: async (host) => expectNotFoundPage(await send(host.origin, "/404.html"), host),
    differs: {
      cloudflare: {
        why: "pretty URLs: Pages answers every /x.html with a 308 to /x (here /404, above)",
        run: async (host) => {
          const a = await send(host.origin, "/404.html");
          expect(a.status).toBe(308);
          expect(a.headers.location).toBe("/404");
        },
      },
    },
  },
  ...["/index.html.br", "/index.html.gz", "/404.html.br", "/.build-inputs", `${asset}.map`, `${asset}.br`].map((path): Check => ({
    name: `no build internal: ${path} is the not-found page (404)`,
    run: async (host) => expectNotFoundPage(await send(host.origin, path), host),
  })),
  ...["/_headers", "/_redirects"].map((path): Check => ({
    name: `no build internal: ${path} is the not-found page (404)`,
    run: async (host) => expectNotFoundPage(await send(host.origin, path), host),
    differs: {
      cloudflare: {
        why: "Pages reads its configuration files and never serves them; `wrangler pages dev` answers them 502",
        run: async (host) => {
          const a = await send(host.origin, path);
          expect(a.status).toBe(502);
          expect(a.body.toString()).not.toContain(readFileSync(join(staticDir, path), "utf8").split("\n")[1]);
        },
      },
    },
  })),
  {
    name: "a trailing slash redirects to the page's one URL (same origin)",
    run: async (host) => {
      const a = await send(host.origin, "/terms-of-service/");
      expect(a.status).toBe(301);
      expect(a.headers.location).toBe("/terms-of-service");
      expectPolicy(a, host);
    },
    differs: {
      cloudflare: {
        why: "Pages redirects with 308 (permanent, method kept) rather than 301",
        run: async (host) => {
          const a = await send(host.origin, "/terms-of-service/");
          expect(a.status).toBe(308);
          expect(a.headers.location).toBe("/terms-of-service");
          expectPolicy(a, host);
        },
      },
    },
  },
  {
    name: "HEAD: the headers of GET, no body",
    run: async (host) => {
      const a = await send(host.origin, "/", { method: "HEAD" });
      expect(a.status).toBe(200);
      expect(a.body.length).toBe(0);
      expectCache(a, CACHE_REVALIDATE);
      expectPolicy(a, host);
    },
  },
  {
    name: "revalidation: 304 with the same Cache-Control and policy",
    run: async (host) => {
      const first = await send(host.origin, "/terms-of-service");
      expect(first.headers.etag).toBeTruthy();
      const a = await send(host.origin, "/terms-of-service", { headers: { "If-None-Match": String(first.headers.etag) } });
      expect(a.status).toBe(304);
      expect(a.body.length).toBe(0);
      expectCache(a, CACHE_REVALIDATE);
      expectPolicy(a, host);
    },
  },
  ...["POST", "PUT", "DELETE", "OPTIONS"].map((method): Check => ({
    name: `${method}: 405 with Allow: GET, HEAD`,
    run: async (host) => {
      const a = await send(host.origin, "/", { method });
      expect(a.status).toBe(405);
      expect(a.headers.allow).toBe("GET, HEAD");
      expectPolicy(a, host);
    },
    differs: {
      cloudflare: {
        why: "Pages answers 405 without an Allow header, and Allow cannot be set from _headers",
        run: async (host) => {
          const a = await send(host.origin, "/", { method });
          expect(a.status).toBe(405);
          expect(a.headers.allow).toBeUndefined();
          expectPolicy(a, host);
        },
      },
    },
  })),
  {
    name: "Range: 206 with the bytes asked for",
    run: async (host) => {
      const a = await send(host.origin, "/", { headers: { Range: "bytes=0-9" } });
      expect(a.status).toBe(206);
      expect(a.body.equals(distFile("/index.html").subarray(0, 10))).toBe(true);
      expectPolicy(a, host);
    },
    differs: {
      cloudflare: {
        why: "Pages' asset server ignores Range on these files and sends the whole page (harmless for pages this size)",
        run: async (host) => {
          const a = await send(host.origin, "/", { headers: { Range: "bytes=0-9" } });
          expect(a.status).toBe(200);
          expect(a.body.equals(distFile("/index.html"))).toBe(true);
        },
      },
    },
  },
  {
    name: "brotli: the build's own precompressed copy",
    run: async (host) => {
      const a = await send(host.origin, "/", { headers: { "Accept-Encoding": "br, gzip" } });
      expect(a.headers["content-encoding"]).toBe("br");
      expect(a.body.equals(distFile("/index.html.br"))).toBe(true);
      expectPolicy(a, host);
    },
    differs: {
      cloudflare: {
        why: "the published folder has no precompressed copies (a static host would serve them as files): Cloudflare compresses as it serves",
        run: async (host) => {
          const a = await send(host.origin, "/", { headers: { "Accept-Encoding": "br, gzip" } });
          expect(a.headers["content-encoding"]).toBe("br");
          expect(brotliDecompressSync(a.body).equals(distFile("/index.html"))).toBe(true);
          expectPolicy(a, host);
        },
      },
    },
  },
];

// The three servers. Cloudflare's runtime is started here, while the tests are collected, so that a
// runtime unable to start can skip (locally) or fail (CI) its column with one line.
const edgeStart = await startWrangler({ root: staticDir }).then(
  (edge): { edge: LocalEdge; cause?: undefined } => ({ edge }),
  (error: unknown) => ({
    edge: undefined,
    cause: `Cloudflare's runtime (wrangler pages dev) did not start: ${String(error).split("\n")[0]}`,
  }),
);
afterAll(() => edgeStart.edge?.stop());
const nginxCause = available("nginx") ? undefined : missingLine("nginx");

let ours: Running;
let nginx: LocalNginx | undefined;
beforeAll(async () => {
  ours = await startServer();
  if (!nginxCause) nginx = await startNginx();
});
afterAll(async () => {
  await ours?.close();
  await nginx?.stop();
});

/** index.html and its precompressed copies in a served folder, with their sizes: what a failed check on them saw. */
function servedCopies(root: string): string {
  return ["index.html", "index.html.br", "index.html.gz"]
    .map((file) => (existsSync(join(root, file)) ? `${file} ${statSync(join(root, file)).size} bytes` : `${file} missing`))
    .join(", ");
}

const hosts: Array<{ name: HostName; cause?: string; host: () => Host }> = [
  { name: "ours", host: () => ({ name: "ours", origin: ours.origin, policy: expectedSecurityHeaders() }) },
  { name: "nginx", cause: nginxCause, host: () => ({ name: "nginx", origin: nginx!.origin, policy: published }) },
  { name: "cloudflare", cause: edgeStart.cause, host: () => ({ name: "cloudflare", origin: edgeStart.edge!.origin, policy: published }) },
];

for (const { name, cause, host } of hosts) {
  if (cause && isCI()) {
    it(`${name}: starts`, () => {
      throw new Error(cause);
    });
    continue;
  }
  if (cause) console.log(`hosts: ${name} skipped: ${cause}`);
  describe.skipIf(Boolean(cause))(name, () => {
    it.each(
      checks.map((check) => [check.differs?.[name] ? `${check.name} (differs: ${check.differs[name]!.why})` : check.name, check] as const),
    )("%s", async (_title, check) => {
      const own = check.differs?.[name];
      try {
        await (own ? own.run(host()) : check.run(host()));
      } catch (error) {
        // nginx declines a precompressed copy it cannot open and says why only in its error log; one it
        // does not find (ENOENT) it declines silently, so the folder it serves is said too.
        if (name === "nginx" && nginx && error instanceof Error) {
          const log = nginx.log().trim();
          if (log) error.message += `\nnginx's error log:\n${log}`;
          error.message += `\nnginx serves ${nginx.root} (brotli module ${nginx.brotli ? "loaded" : "absent"}): ${servedCopies(nginx.root)}`;
        }
        throw error;
      }
    });
  });
}

/**
 * The same policy through the edge, in a browser: every page's inline scripts run under the CSP
 * Cloudflare sends (no violation), Accept All works, and an island hydrates from its module.
 */
const browserCause = edgeStart.cause ?? (available("chromium") ? undefined : missingLine("chromium"));
describe.skipIf(Boolean(browserCause) && !isCI())("in Chromium through Cloudflare's runtime", () => {
  const browser = chromiumForBlock(browserCause);

  const open = (path: string) => openWatchingCsp(browser(), `${edgeStart.edge!.origin}${path}`);

  it.each([...PAGES, "/no-such-page"])("%s: the head script runs under the edge's CSP, with no violation", async (path) => {
    const { page, response, errors, violations } = await open(path);
    expect(response?.status()).toBe(path === "/no-such-page" ? 404 : 200);
    // The inline head script marks the consent state before the first paint. (Vitest's expect.poll gives
    // up after 1 s, which a busy machine can outlast: the locators wait for the state itself.)
    await page.locator('html[data-consent="unset"]').waitFor({ state: "attached" });
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Accept All stores the choice and hides the banner; an island hydrates; no violation", async () => {
    const { page, errors, violations } = await open("/");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await banner.getByRole("button", { name: "Accept All" }).click();
    await banner.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => localStorage.getItem("cookieConsent"))).toBe("accepted");
    expect(await page.locator("html").getAttribute("data-consent")).toBe("accepted");
    // Focus wakes the tooltips' island (client:when="intent"): its module loads and it hydrates.
    await page.locator('astro-island[component-url*="/Highlights."] button').first().focus();
    // Astro removes `ssr` once the island has hydrated.
    await page.locator('astro-island[component-url*="/Highlights."]:not([ssr])').first().waitFor({ state: "attached" });
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
