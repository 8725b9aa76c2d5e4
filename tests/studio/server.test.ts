import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_CSP } from "../../studio/http/guards.ts";
import { startStudio, type RunningStudio } from "../../studio/start.ts";

let repo = "";
let studio: RunningStudio;
let origin = "";

const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), "studio-repo-"));
  git("init", "--quiet", "--initial-branch=main");
  writeFileSync(join(repo, "hero.yaml"), "headline: Hello\n");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "start");
  studio = await startStudio({ mode: "loopback", port: 0 }, repo);
  origin = studio.url;
}, 60_000);

afterAll(async () => {
  await studio?.stop();
  rmSync(repo, { recursive: true, force: true });
});

const api = (body: unknown) =>
  fetch(`${origin}/api/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });

/** A request with headers Node's fetch will not set (Host), through node:http. */
const status = (path: string, method: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers: { "Content-Type": "application/json", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(method === "POST" ? JSON.stringify({ action: "info" }) : undefined);
  });

/** The TCP sockets a process listens on (its open socket inodes among the listening ones of /proc/net/tcp*). */
function listeningTcp(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`)
      .map((fd) => /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1])
      .filter(Boolean),
  );
  return ["tcp", "tcp6"].flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[3] === "0A" && inodes.has(cols[9]))
      .map((cols) => cols[1]!),
  );
}

describe("the studio's server (loopback)", () => {
  it("serves the admin page with its own strict policy and no script from another origin", async () => {
    const response = await fetch(`${origin}/admin/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(ADMIN_CSP);
    expect(ADMIN_CSP).toContain("default-src 'none'");
    expect(ADMIN_CSP).toContain("frame-ancestors 'none'");
    expect(ADMIN_CSP).not.toMatch(/https?:/);
    const html = await response.text();
    expect([...html.matchAll(/src="([^"]+)"/g)].map((m) => m[1])).toEqual(["/admin/decap-cms.js", "/admin/studio.js"]);
    for (const path of ["/admin/decap-cms.js", "/admin/studio.js"]) {
      const script = await fetch(`${origin}${path}`);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
      await script.arrayBuffer();
    }
  });

  it("links its pages' stylesheet under the name of its hash, which browsers keep until it changes", async () => {
    const page = await (await fetch(`${origin}/admin/approvals`)).text();
    const href = /<link rel="stylesheet" href="(\/admin\/studio\.([0-9a-f]{12})\.css)"/.exec(page);
    expect(href, page).not.toBeNull();
    const css = await fetch(`${origin}${href![1]}`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const text = await css.text();
    expect(createHash("sha256").update(text).digest("hex").slice(0, 12)).toBe(href![2]);
    expect(text).toBe(readFileSync(join(import.meta.dirname, "../../studio/pages/studio.css"), "utf8"));
    expect((await fetch(`${origin}/admin/studio.css`)).status).not.toBe(200);
  });

  it("generates its configuration from the schemas, Decap's proxy backend on the studio itself", async () => {
    const text = await (await fetch(`${origin}/admin/config.yml`)).text();
    expect(text).toContain("publish_mode: editorial_workflow");
    expect(text).toMatch(/backend:\n {2}name: proxy\n {2}proxy_url: \/api\/v1\n/);
    expect(text).not.toContain("local_backend");
    expect(text).toContain("file: src/content/landing/hero.yaml");
  });

  it("passes the git API on to decap-server, which listens on a private Unix socket and on no TCP port", async () => {
    const response = await api({ action: "info" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ type: "local_git", publish_modes: expect.arrayContaining(["editorial_workflow"]) });
    expect(statSync(studio.decap.socket).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(studio.decap.socket)).mode & 0o777).toBe(0o700);
    expect(listeningTcp(studio.decap.process.pid!)).toEqual([]);
  });

  it.each([
    ["a foreign Host (DNS rebinding)", { Host: "attacker.example" }],
    ["a foreign Host on the studio's port", { Host: "attacker.example:4323" }],
    ["a foreign Origin (a web page in the same browser)", { Origin: "https://attacker.example" }],
    ["another local origin", { Origin: "http://127.0.0.1:1" }],
    ["the null Origin of a sandboxed frame", { Origin: "null" }],
  ])("refuses %s with 403, on the API and on the page", async (_, headers) => {
    expect(await status("/api/v1", "POST", headers)).toBe(403);
    expect(await status("/admin/preview", "POST", headers)).toBe(403);
    if ("Host" in headers) expect(await status("/admin/", "GET", headers)).toBe(403);
  });

  it("refuses a change without an Origin header, and one the browser marks as cross-site", async () => {
    expect(await status("/api/v1", "POST", {})).toBe(403);
    expect(await status("/api/v1", "POST", { Origin: origin, "Sec-Fetch-Site": "cross-site" })).toBe(403);
    expect(await status("/api/v1", "POST", { Origin: origin, "Sec-Fetch-Site": "same-site" })).toBe(403);
    expect(await status("/api/v1", "POST", { Origin: origin, "Sec-Fetch-Site": "same-origin" })).toBe(200);
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
});
