/**
 * Netlify, offline: its CLI cannot run here, so the published folder's `_headers` and `_redirects` are
 * read by Netlify's own parsers (@netlify/headers-parser, @netlify/redirect-parser), and each path's
 * effective headers are worked out the way Netlify matches rules. Netlify applies every rule whose path
 * matches; for the same header in several matching rules, its parser's merge keeps the later one
 * (headers-parser `merge.ts`) and its CLI's dev server does the same (`headersForPath`:
 * `Object.assign` over the matching rules in file order). This site does not depend on that rule: the
 * test proves that no path matches two rules naming the same header, so every order and every merge
 * gives the same answer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseAllHeaders, type Header } from "@netlify/headers-parser";
import { parseAllRedirects } from "@netlify/redirect-parser";
import { describe, expect, it } from "vitest";
import { isBuildInternal, NOT_FOUND_REDIRECT, urlPathOf } from "../../src/shared/publish.ts";
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, parseHeadersFile } from "../../src/shared/security-headers.ts";
import { dist } from "./support.ts";

const staticDir = `${dist}-static`;
const published = parseHeadersFile(readFileSync(join(dist, "_headers"), "utf8"));

const { headers: rules, errors } = await parseAllHeaders({
  headersFiles: [join(staticDir, "_headers")],
  configHeaders: undefined,
  minimal: false,
});

/** Every file of the published folder, by the URL path Netlify serves it at. */
const files = (
  readdirSync(staticDir, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>
)
  .filter((entry) => entry.isFile())
  .map((entry) => relative(staticDir, join(entry.parentPath, entry.name)).replace(/\\/g, "/"))
  .filter((file) => !["_headers", "_redirects"].includes(file));

const matching = (path: string) => (rules as Header[]).filter((rule) => rule.forRegExp.test(path));
/** The headers Netlify sends for a path from `_headers` (its CLI's matching: later rules win). */
const effective = (path: string): Record<string, string> => Object.assign({}, ...matching(path).map((rule) => rule.values));

describe("Netlify's parser on the published _headers", () => {
  it("parses with no errors", () => {
    expect(errors.map((e) => e.message)).toEqual([]);
    expect(rules.length).toBeGreaterThan(2);
  });

  it("publishes no build internal (no precompressed copy, no fingerprint)", () => {
    expect(files.filter(isBuildInternal)).toEqual([]);
    expect(files).toContain("index.html");
    expect(files).toContain("404.html");
  });

  const paths = [...files.map(urlPathOf), "/no-such-page", "/_astro/no-such-file.js"];
  it.each(paths)("%s matches no two rules that name the same header", (path) => {
    const names = matching(path).flatMap((rule) => Object.keys(rule.values).map((name) => name.toLowerCase()));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it.each(files.map(urlPathOf))("%s gets every policy header and one Cache-Control", (path) => {
    const headers = effective(path);
    expect(headers).toMatchObject(published);
    expect(headers["Cache-Control"]).toBe(path.startsWith("/_astro/") ? CACHE_IMMUTABLE : CACHE_REVALIDATE);
  });

  it("an unknown path gets the policy headers, and Netlify's own Cache-Control (the file sets none)", () => {
    const headers = effective("/no-such-page");
    expect(headers).toMatchObject(published);
    expect(headers["Cache-Control"]).toBeUndefined();
  });
});

describe("Netlify's parser on the published _redirects", () => {
  it("parses /404 to a path that does not exist, as Cloudflare's runtime reads it", async () => {
    const { redirects, errors: redirectErrors } = await parseAllRedirects({
      redirectsFiles: [join(staticDir, "_redirects")],
      configRedirects: [],
      minimal: true,
    });
    expect(redirectErrors).toEqual([]);
    expect(redirects).toEqual([
      expect.objectContaining({
        from: NOT_FOUND_REDIRECT.from,
        to: NOT_FOUND_REDIRECT.to,
        status: NOT_FOUND_REDIRECT.status,
        force: false,
      }),
    ]);
    expect(files.map(urlPathOf)).not.toContain(NOT_FOUND_REDIRECT.to);
  });
});
