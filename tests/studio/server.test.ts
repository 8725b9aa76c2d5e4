import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDecapServer, type DecapServer } from "../../studio/decap-server.ts";
import { listen } from "../../studio/listen.ts";
import { ADMIN_CSP, createStudioServer } from "../../studio/server.ts";

let repo = "";
let decap: DecapServer;
let server: Server;
let origin = "";

const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), "studio-repo-"));
  git("init", "--quiet", "--initial-branch=main");
  writeFileSync(join(repo, "hero.yaml"), "headline: Hello\n");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "start");
  decap = await startDecapServer(repo);
  server = createStudioServer({ root: repo, repo, decapUrl: decap.url });
  origin = `http://127.0.0.1:${await listen(server, 0)}`;
}, 60_000);

afterAll(async () => {
  await new Promise((done) => server?.close(done));
  await decap?.stop();
  rmSync(repo, { recursive: true, force: true });
});

const api = (body: unknown) =>
  fetch(`${origin}/api/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });

describe("the studio's server", () => {
  it("serves the admin page with its own strict policy and no script from another origin", async () => {
    const response = await fetch(`${origin}/admin/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(ADMIN_CSP);
    expect(ADMIN_CSP).toContain("default-src 'none'");
    expect(ADMIN_CSP).toContain("frame-ancestors 'none'");
    expect(ADMIN_CSP).not.toMatch(/https?:/);
    const html = await response.text();
    expect([...html.matchAll(/src="([^"]+)"/g)].map((m) => m[1])).toEqual(["/admin/decap-cms.js", "/admin/studio.js"]);
    const bundle = await fetch(`${origin}/admin/decap-cms.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/^text\/javascript/);
    await bundle.arrayBuffer();
  });

  it("generates its configuration from the schemas, pointing the git API at itself", async () => {
    const text = await (await fetch(`${origin}/admin/config.yml`)).text();
    expect(text).toContain("publish_mode: editorial_workflow");
    expect(text).toContain(`url: ${origin}/api/v1`);
    expect(text).toContain("file: src/content/landing/hero.yaml");
  });

  it("passes the git API on to decap-server in git mode", async () => {
    const response = await api({ action: "info" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ type: "local_git", publish_modes: expect.arrayContaining(["editorial_workflow"]) });
  });

  it.each([
    ["a foreign Host (DNS rebinding)", { Host: "attacker.example" }],
    ["a foreign Host on the studio's port", { Host: "attacker.example:4323" }],
    ["a foreign Origin (a web page in the same browser)", { Origin: "https://attacker.example" }],
    ["another local origin", { Origin: "http://127.0.0.1:1" }],
    ["the null Origin of a sandboxed frame", { Origin: "null" }],
  ])("refuses %s with 403, on the API and on the page", async (_, headers) => {
    // Node's fetch will not set Host, so these go through node:http.
    const { request } = await import("node:http");
    const status = (path: string, method: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${origin}${path}`, { method, headers: { "Content-Type": "application/json", ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end(method === "POST" ? JSON.stringify({ action: "info" }) : undefined);
      });
    expect(await status("/api/v1", "POST")).toBe(403);
    expect(await status("/admin/", "GET")).toBe(403);
    expect(await status("/admin/preview", "POST")).toBe(403);
  });

  it("answers bad requests with a 4xx, never a file outside Decap's bundle", async () => {
    for (const path of [
      "/admin/../package.json",
      "/admin/%2e%2e/package.json",
      "/admin/..%2fpackage.json",
      "/admin/decap-cms.js.map",
      "/etc/passwd",
      "/admin/config.yaml",
    ])
      expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
    expect((await fetch(`${origin}/api/v1`)).status).toBe(405);
    const post = (path: string, body: string, type: string, method = "POST") =>
      fetch(`${origin}${path}`, { method, body, headers: { "Content-Type": type, Origin: origin } }).then((r) => r.status);
    expect(await post("/api/v1", "{}", "text/plain")).toBe(415);
    expect(await post("/api/v1", "{", "application/json")).toBe(400);
    expect(await post("/admin/", "", "text/plain", "DELETE")).toBe(405);
    expect(await post("/admin/preview", "{}", "text/plain")).toBe(415);
    expect(await post("/admin/preview", "{", "application/json")).toBe(400);
    expect((await fetch(`${origin}/admin/preview`)).status).toBe(405);
  });

  it("says why the preview pane cannot draw when the project has no site to draw with", async () => {
    // This repository has no src/: the stylesheet and renderer cannot be made, and the pane says so.
    const response = await fetch(`${origin}/admin/preview`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify({ collection: "landing", slug: "hero", data: { headline: "Hello" } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ problems: [expect.stringMatching(/^The preview could not be made: /)] });
  });

  it("refuses a change without an Origin header (not sent by the studio's own page)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${origin}/api/v1`, { method: "POST", headers: { "Content-Type": "application/json" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify({ action: "info" }));
    });
    expect(status).toBe(403);
  });
});
