/**
 * The production config (deploy/nginx/site.conf.template + the generated security-headers.conf) run by
 * the real nginx over dist/: what only nginx does (the rules it shares with our server and Cloudflare's
 * runtime are the table in hosts.test.ts).
 * Without nginx and its brotli module the file is skipped locally (one line names the apt command);
 * with CI=true it fails (.ci/run installs them).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNginx, type LocalNginx } from "../../testing/nginx-local.ts";
import { BROTLI_MODULE } from "../../scripts/lib/system-deps.ts";
import { PortTakenError } from "../../lib/ports.ts";
import { parseHeadersFile } from "../../src/shared/security-headers.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { dist, distFile, rawRequest, requireBuild, send, type Answer } from "./support.ts";

const skip = !available("nginx") && !isCI();

requireBuild();
// nginx is a TLS deployment's server: it sends the full published set, HSTS included.
const published = parseHeadersFile(readFileSync(join(dist, "_headers"), "utf8"));
// A hashed script large enough to have been precompressed (.br and .gz next to it).
const astroFiles = readdirSync(join(dist, "_astro"));
const asset = `/_astro/${astroFiles.find((f) => f.endsWith(".js") && astroFiles.includes(`${f}.gz`) && astroFiles.includes(`${f}.br`))}`;

let nginx: LocalNginx;
beforeAll(async () => {
  if (!skip) nginx = await startNginx();
});
afterAll(async () => {
  await nginx?.stop();
});

const expectPolicy = (a: Answer) => {
  for (const [name, value] of Object.entries(published)) expect(a.headers[name.toLowerCase()], name).toBe(value);
  // server_tokens off: no version (the bare product name cannot be removed without a third-party module).
  expect(String(a.headers.server ?? "")).not.toMatch(/\d/);
  expect(a.headers["x-powered-by"]).toBeUndefined();
};

describe.skipIf(skip)("nginx with deploy/nginx", () => {
  // The serving rules it shares with our server and Cloudflare's runtime are one table in hosts.test.ts;
  // here is what only this configuration does.
  it("sends no Allow header on ordinary answers", async () => {
    expect((await send(nginx.origin, "/")).headers.allow).toBeUndefined();
  });

  it("serves the gzip copy (gzip_static)", async () => {
    const a = await send(nginx.origin, asset, { headers: { "Accept-Encoding": "gzip" } });
    expect(a.headers["content-encoding"]).toBe("gzip");
    expect(a.headers.vary).toBe("Accept-Encoding");
    expect(a.body.equals(distFile(`${asset}.gz`))).toBe(true);
  });

  it("has Debian's brotli module (brotli_static)", () => {
    expect(nginx.brotli, `${BROTLI_MODULE} missing: apt-get install libnginx-mod-http-brotli-static`).toBe(true);
  });

  it.each(["/.env", "/.git/config", "/_astro"])("hides %s (404 page)", async (path) => {
    const a = await send(nginx.origin, path);
    expect(a.status).toBe(404);
    expect(a.body.equals(distFile("/404.html"))).toBe(true);
    expectPolicy(a);
  });

  it.each([
    ["/terms-of-service/", "/terms-of-service"],
    ["//evil.example/", "/evil.example"],
  ])("redirects %s to the same origin only", async (path, location) => {
    const a = await send(nginx.origin, path, { headers: { Host: "evil.example" } });
    expect(a.status).toBe(301);
    expect(a.headers.location).toBe(location);
    expectPolicy(a);
  });

  it("refuses traversal and a request line over 8 KiB", async () => {
    // Raw socket: an HTTP client would normalise the dots away before sending.
    const climb = await rawRequest(nginx.port, "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(climb.status).toBe(400);
    expect(climb.raw.toString("latin1")).not.toContain("root:x:0:0");
    const long = await send(nginx.origin, `/${"a".repeat(9 * 1024)}`);
    expect(long.status).toBe(414);
    expectPolicy(long);
  });

  it("is not fooled by a port another server holds: it starts elsewhere, or names the port taken", async () => {
    // Asked for a port another server holds, it fails with PortTakenError instead of taking that
    // server's answers for its own (the readiness check waits for its own master's pid file).
    await expect(startNginx({ port: nginx.port })).rejects.toBeInstanceOf(PortTakenError);
  });
});
