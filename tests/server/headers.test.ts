/** One policy on every answer of our server, whatever its status, and the same policy in every generated file. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forPlainHttp } from "../../server/app.ts";
import { parseHeadersFile } from "../../src/shared/security-headers.ts";
import { dist, expectedSecurityHeaders, projectRoot, rawRequest, startServer, type Running } from "./support.ts";

let server: Running;
let failing: Running;
const asset = () => {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const match = /\/_astro\/[\w.-]+\.js/.exec(html);
  if (!match) throw new Error("no hashed script referenced by index.html");
  return match[0];
};

beforeAll(async () => {
  server = await startServer();
  failing = await startServer({
    serveStatic: () => {
      throw new Error("disk on fire at /secret/path");
    },
  });
});
afterAll(async () => {
  await server?.close();
  await failing?.close();
});

const securityOf = (headers: Headers) =>
  Object.fromEntries(Object.keys(expectedSecurityHeaders()).map((name) => [name, headers.get(name)]));

describe("the same headers on every status", () => {
  const scenarios: Array<[string, () => Promise<Response>, number]> = [
    // 200, an HTML page
    ["200 page", () => fetch(`${server.origin}/privacy-policy`), 200],
    // 200, a hashed asset
    ["200 asset", () => fetch(`${server.origin}${asset()}`), 200],
    // 304, revalidation
    [
      "304",
      async () => {
        const first = await fetch(`${server.origin}/`);
        await first.arrayBuffer();
        return fetch(`${server.origin}/`, { headers: { "If-None-Match": first.headers.get("etag") ?? "" } });
      },
      304,
    ],
    // 404, unknown path
    ["404", () => fetch(`${server.origin}/missing`), 404],
    // 405, other method
    ["405", () => fetch(`${server.origin}/`, { method: "POST", body: "x" }), 405],
    // 500, the static step throws (injected)
    ["500", () => fetch(`${failing.origin}/`), 500],
    // 400, from the handler
    ["400", () => fetch(`${server.origin}/%zz`), 400],
  ];

  it.each(scenarios)("%s", async (_name, send, status) => {
    const res = await send();
    const body = await res.text();
    expect(res.status).toBe(status);
    expect(securityOf(res.headers)).toEqual(expectedSecurityHeaders());
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("server")).toBeNull();
    // Plain HTTP: no HSTS here (it belongs to TLS deployments, see dist/_headers).
    expect(res.headers.get("strict-transport-security")).toBeNull();
    if (status === 304) expect(body).toBe("");
    if (status === 500) {
      expect(body).toContain("<title>Unexpected Application Error!</title>");
      // No internals in the page.
      expect(body).not.toContain("disk on fire");
      expect(body).not.toContain("/secret/path");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("parser-level refusals (431) carry them too", async () => {
    const res = await rawRequest(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    for (const [name, value] of Object.entries(expectedSecurityHeaders())) expect(res.headers[name.toLowerCase()]).toBe(value);
  });

  it("HEAD on the 500 path sends the error headers without a body", async () => {
    const res = await rawRequest(failing.port, "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(500);
    expect(res.body.length).toBe(0);
  });
});

describe("caching", () => {
  it("hashed assets are immutable for a year", async () => {
    const res = await fetch(`${server.origin}${asset()}`);
    await res.arrayBuffer();
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
  it.each(["/", "/terms-of-service", "/cookie-policy"])("HTML %s revalidates every time", async (path) => {
    const res = await fetch(`${server.origin}${path}`);
    await res.arrayBuffer();
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toMatch(/^W\/"/);
  });
  it("the 404 page is not cached as if it were content", async () => {
    const res = await fetch(`${server.origin}/nope`);
    await res.arrayBuffer();
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toBeNull();
  });
});

describe("the policy itself", () => {
  const headersFile = readFileSync(join(dist, "_headers"), "utf8");
  const published = parseHeadersFile(headersFile);
  const csp = published["Content-Security-Policy"] ?? "";
  const directive = (name: string) => csp.split(/;\s*/).find((d) => d.split(" ")[0] === name);

  it("dist/_headers carries the TLS-only headers our plain-HTTP server leaves out", () => {
    expect(published["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(directive("upgrade-insecure-requests")).toBe("upgrade-insecure-requests");
    expect(forPlainHttp(published)).toEqual(expectedSecurityHeaders());
  });

  it("is strict", () => {
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(directive("default-src")).toBe("default-src 'none'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("base-uri")).toMatch(/^base-uri '(none|self)'$/);
    expect(directive("form-action")).toBe("form-action 'self'");
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    // Nothing wider than an origin: no wildcards, no bare schemes, not even data: images (the tab icon
    // is the site's own PNG).
    expect(csp).not.toMatch(/\s(\*|https?:|data:|blob:)(\s|;|$)/);
    expect(directive("img-src")).toBe("img-src 'self'");
    expect(published).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
      "X-Frame-Options": "DENY",
    });
    expect(published["Permissions-Policy"]).toMatch(/camera=\(\)/);
  });

  it("nginx gets the same headers, each with `always`", () => {
    const include = readFileSync(join(projectRoot, "deploy/nginx/generated/security-headers.conf"), "utf8");
    const lines = include.split("\n").filter((l) => l.startsWith("add_header"));
    const parsed = Object.fromEntries(
      lines.map((l) => {
        const m = /^add_header (\S+) "((?:[^"\\]|\\.)*)" always;$/.exec(l);
        if (!m) throw new Error(`unexpected line: ${l}`);
        return [m[1], m[2]?.replace(/\\(.)/g, "$1")];
      }),
    );
    expect(parsed).toEqual(published);
  });

  it("dist/_headers makes hashed assets immutable for static hosts", () => {
    expect(headersFile).toMatch(/^\/_astro\/\*\n {2}Cache-Control: public, max-age=31536000, immutable$/m);
  });
});
