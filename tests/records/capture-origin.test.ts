/**
 * `npm run records:capture -- --origin URL` archives a site as a host serves it: here Cloudflare's runtime
 * (`wrangler pages dev dist-static`, offline), as the deploy workflow archives the public URL after
 * `wrangler pages deploy`. The archive verifies with `npm run records:verify`, its records carry the
 * origin's URLs, and its WARC holds the edge's own headers (Cache-Control, the CSP and HSTS from
 * `_headers`, which our server never sends over plain HTTP), not our server's. The edge serves a copy of
 * the build with three pages (the landing page, a legal page and the 404; tests/support/small-dist.ts):
 * what is tested is how a capture keeps an origin's answers, which every page shows alike, not what each
 * page holds (the records' own files capture every page: 6 s of capture against 16 s).
 */
import { spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARCParser } from "warcio";
import { MANIFEST, manifestSchema, type Manifest } from "../../lib/records/manifest.ts";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { startWrangler, type LocalEdge } from "../../testing/wrangler-local.ts";
import { parseHeadersFile } from "../../src/shared/security-headers.ts";
import { dist, projectRoot, requireBuild } from "../server/support.ts";
import { smallDist } from "../support/small-dist.ts";

const cause = available("chromium") ? undefined : missingLine("chromium");
requireBuild();
const staticDir = join(projectRoot, "dist-static");
/** The pages the edge serves and the capture takes: the landing page (its chunked answer), a legal page and the 404. */
const PAGES = ["/", "/privacy-policy", "/404"];
// What Cloudflare Pages applies to every path, from the _headers file it is given.
const published = parseHeadersFile(readFileSync(join(staticDir, "_headers"), "utf8"));

interface Recorded {
  type: string;
  url: string;
  headers: Headers;
}
let edge: LocalEdge | undefined;
let scratch: string;
let folder: string;
let manifest: Manifest;
let manifestSha256: string;
const records: Recorded[] = [];

// The npm scripts run as a person runs them: not under Vitest's NODE_ENV=test.
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
const run = (script: string, ...args: string[]) =>
  spawnSync("npm", ["run", "--silent", script, "--", ...args], { cwd: projectRoot, encoding: "utf8", env: childEnv });

beforeAll(async () => {
  if (cause && !isCI()) return;
  scratch = mkdtempSync(join(tmpdir(), "archive-origin-"));
  // The edge's folder for static hosts, and the build the capture lists its pages from, with those pages alone.
  edge = await startWrangler({ root: smallDist(staticDir, PAGES, join(scratch, "static")) });
  const pages = smallDist(dist, PAGES, join(scratch, "dist"));
  const out = join(scratch, "store");
  const result = run("records:capture", "--origin", edge.origin, "--dist", pages, "--out", out);
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  manifestSha256 = /manifest\.json sha256 ([0-9a-f]{64})/.exec(result.stdout)?.[1] ?? "";
  const [name] = readdirSync(out);
  folder = join(out, String(name));
  manifest = manifestSchema.parse(JSON.parse(readFileSync(join(folder, MANIFEST), "utf8")));
  for await (const record of new WARCParser(createReadStream(join(folder, manifest.warc)))) {
    const headers = new Headers([...(record.httpHeaders?.headers ?? [])]);
    records.push({ type: record.warcType ?? "", url: record.warcTargetURI ?? "", headers });
    await record.readFully();
  }
}, 180_000);
afterAll(async () => {
  await edge?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const response = (url: string) => records.find((r) => r.type === "response" && r.url === url);

describe.skipIf(cause && !isCI())("npm run records:capture -- --origin, against Cloudflare's runtime", () => {
  it("verifies with npm run records:verify and the hash it printed", () => {
    const result = run("records:verify", folder, "--manifest-sha256", manifestSha256);
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  });

  it("names the origin it archived, and records every page under the origin's URLs", () => {
    expect(manifest.origin).toBe(edge?.origin);
    expect(manifest.pages.map((page) => page.path).sort()).toEqual([...PAGES].sort());
    for (const page of manifest.pages) {
      expect(page.url.startsWith(`${edge?.origin}/`), page.url).toBe(true);
      expect(response(page.url), page.url).toBeDefined();
    }
    const requests = records.filter((r) => r.type === "request");
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(request.headers.get("host"), request.url).toBe(new URL(String(edge?.origin)).host);
  });

  it("holds the edge's headers on every page: its Cache-Control, the CSP and HSTS from _headers", () => {
    for (const page of manifest.pages) {
      const answer = response(page.url)!;
      expect(answer.headers.get("content-security-policy"), page.url).toBe(published["Content-Security-Policy"]);
      expect(answer.headers.get("strict-transport-security"), page.url).toBe(published["Strict-Transport-Security"]);
      // Pages answer no-cache; the not-found answer carries the platform's own no-store.
      expect(answer.headers.get("cache-control"), page.url).toBe(page.status === 404 ? "no-store" : "no-cache");
    }
  });

  it("holds the edge's immutable Cache-Control on the hashed assets it served", () => {
    const assets = records.filter((r) => r.type === "response" && r.url.startsWith(`${edge?.origin}/_astro/`));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(asset.headers.get("cache-control"), asset.url).toBe("public, max-age=31536000, immutable");
  });

  it("keeps the edge's chunked framing as a header of its own: the stored body is de-chunked", () => {
    const home = response(`${edge?.origin}/`)!;
    expect(home.headers.get("transfer-encoding")).toBeNull();
    expect(home.headers.get("x-archive-orig-transfer-encoding")).toBe("chunked");
  });
});
