import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDecapBackend } from "../../studio/decap/backend.ts";
import { decapDist } from "../../studio/http/admin-assets.ts";
import { decapBundle } from "../../studio/http/admin-bundle.ts";
import { ADMIN_CSP } from "../../studio/http/guards.ts";
import { startStudio, type RunningStudio } from "../../studio/start.ts";

let repo = "";
let studio: RunningStudio;
let origin = "";
const decap = decapBundle();

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

/** A GET through node:http, which leaves the body as it travelled (fetch would decode it). */
const raw = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });

/** Where an open file points, or "" for one closed since its folder was read (the process goes on working). */
function linkOf(path: string): string {
  try {
    return readlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/** The TCP sockets a process listens on (its open socket inodes among the listening ones of /proc/net/tcp*). */
function listeningTcp(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`)
      .map((fd) => /^socket:\[(\d+)\]$/.exec(linkOf(`/proc/${pid}/fd/${fd}`))?.[1])
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
    const scripts = [...html.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual([`${decap.base}decap-cms.js`, expect.stringMatching(/^\/admin\/studio\.[0-9a-f]{12}\.js$/)]);
    for (const path of scripts) {
      const script = await fetch(`${origin}${path}`);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
      await script.arrayBuffer();
    }
  });

  it("sends Decap's files compressed, under the hash of their contents, kept for a year; asked again, answers 304", async () => {
    await decap.compressed;
    const dist = decapDist();
    // The largest of the chunks Decap asks for beside its bundle.
    const chunk = readdirSync(dist)
      .filter((name) => /^\d+\.decap-cms\.js$/.test(name))
      .sort((a, b) => statSync(join(dist, b)).size - statSync(join(dist, a)).size)[0]!;
    for (const name of ["decap-cms.js", chunk]) {
      const file = readFileSync(join(dist, name));
      const url = `${origin}${decap.base}${name}`;
      // Raw bytes as they travel (node:http does not decode), by what the browser says it accepts.
      for (const [accepts, encoding, decode] of [
        ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
        ["gzip, deflate", "gzip", gunzipSync],
        ["identity", null, (body: Buffer) => body],
      ] as const) {
        const answer = await raw(url, { "Accept-Encoding": accepts });
        expect(answer.status, `${name} ${accepts}`).toBe(200);
        expect(answer.headers["content-encoding"], `${name} ${accepts}`).toBe(encoding ?? undefined);
        expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(answer.headers.vary).toBe("Accept-Encoding");
        expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
        expect(decode(answer.body).equals(file), `${name} ${accepts}`).toBe(true);
        if (encoding) expect(answer.body.length).toBeLessThan(file.length / 3);
        const again = await raw(url, { "Accept-Encoding": accepts, "If-None-Match": answer.headers.etag as string });
        expect([again.status, again.body.length]).toEqual([304, 0]);
      }
    }
    expect((await raw(`${origin}/admin/decap/0000000000000000/decap-cms.js`, {})).status).toBe(404);
    expect((await raw(`${origin}${decap.base}decap-cms.js.map`, {})).status).toBe(404);
    expect((await raw(`${origin}/admin/decap-cms.js`, {})).status).toBe(404);
  }, 180_000);

  it("sends its own module and styles under their hash, private to the browser, brotli-compressed", async () => {
    const html = await (await fetch(`${origin}/admin/`)).text();
    const paths = [
      /src="(\/admin\/studio\.[0-9a-f]{12}\.js)"/.exec(html)?.[1],
      /href="(\/admin\/studio-admin\.[0-9a-f]{12}\.css)"/.exec(html)?.[1],
    ];
    for (const path of paths) {
      expect(path, html).toBeDefined();
      const answer = await raw(`${origin}${path!}`, { "Accept-Encoding": "gzip, br" });
      expect([answer.status, answer.headers["content-encoding"], answer.headers["cache-control"]]).toEqual([
        200,
        "br",
        "private, max-age=31536000, immutable",
      ]);
      const text = brotliDecompressSync(answer.body).toString("utf8");
      expect(path).toContain(createHash("sha256").update(text).digest("hex").slice(0, 12));
      expect((await raw(`${origin}${path!}`, { "If-None-Match": answer.headers.etag as string })).status).toBe(304);
    }
    expect((await raw(`${origin}/admin/studio.000000000000.js`, {})).status).toBe(404);
    expect((await raw(`${origin}/admin/studio.js`, {})).status).toBe(404);
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

  it("answers its configuration, asked at every visit, 304 while it is the same, brotli-compressed", async () => {
    const first = await raw(`${origin}/admin/config.yml`, { "Accept-Encoding": "gzip, deflate, br" });
    expect([first.status, first.headers["content-encoding"], first.headers["cache-control"]]).toEqual([200, "br", "no-cache"]);
    expect(brotliDecompressSync(first.body).toString("utf8")).toBe(await (await fetch(`${origin}/admin/config.yml`)).text());
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const again = await raw(`${origin}/admin/config.yml`, { "If-None-Match": etag });
    expect([again.status, again.body.length, again.headers.etag]).toEqual([304, 0, etag]);
    expect((await raw(`${origin}/admin/config.yml`, { "If-None-Match": '"0000000000000000"' })).status).toBe(200);
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

  it("removes the socket folder of a studio killed outright as it starts, never a running studio's", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "studio-tmp-"));
    // A process that has ended (a studio killed outright: its folder and dead socket left behind), and one running.
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    const [dead, running] = [`studio-decap-${ended}-Ab12Cd`, `studio-decap-${process.ppid}-Ef34Gh`];
    for (const name of [dead, running]) {
      mkdirSync(join(tmp, name), { mode: 0o700 });
      writeFileSync(join(tmp, name, "decap.sock"), "");
    }
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const backend = await startDecapBackend(repo);
      const own = dirname(backend.socket);
      expect(dirname(own)).toBe(tmp);
      expect(readdirSync(tmp).sort()).toEqual([running, own.slice(tmp.length + 1)].sort());
      expect(own.slice(tmp.length + 1)).toMatch(new RegExp(`^studio-decap-${process.pid}-`));
      await backend.stop();
      expect(readdirSync(tmp)).toEqual([running]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(tmp, { recursive: true, force: true });
    }
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

describe("a save whose entry no longer rebases onto main", () => {
  it("is refused in one sentence naming the files; the branch stays as it was, and the studio keeps answering", async () => {
    // Plain git in the studio's clone: the entry's branch holds an edit and its approval, and main then took another
    // entry's approval of the same page. decap-server rebases the branch onto main before each save, and stops there.
    const clone = (...args: string[]) => execFileSync("git", args, { cwd: studio.repo, encoding: "utf8" }).trim();
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(studio.repo, path)), { recursive: true });
      writeFileSync(join(studio.repo, path), text);
    };
    const commitAll = (message: string) => {
      clone("add", "-A");
      clone("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", message);
    };
    const popup = "src/content/landing/popup.yaml";
    const ledger = "approvals/ledger.json";
    write(popup, "body: Welcome\n");
    write(ledger, '{ "pages": {} }\n');
    commitAll("The popup");
    clone("checkout", "--quiet", "-b", "cms/landing/popup");
    write(popup, "body: Welcome, again\n");
    commitAll("Update the popup");
    write(ledger, '{ "pages": { "/": { "sha256": "popup" } } }\n');
    commitAll("Approve / for publication");
    clone("checkout", "--quiet", "main");
    write(ledger, '{ "pages": { "/": { "sha256": "hero" } } }\n');
    commitAll("Publish the hero");
    const before = clone("rev-parse", "cms/landing/popup");

    const saved = await api({
      action: "persistEntry",
      params: {
        branch: "main",
        dataFiles: [{ path: popup, slug: "popup", raw: "body: Welcome, once more\n" }],
        assets: [],
        options: { collectionName: "landing", commitMessage: "Update the popup", useWorkflow: true, status: "draft" },
      },
    });
    expect(saved.status).toBe(409);
    expect(await saved.json()).toEqual({
      error:
        "Not saved: main has changed approvals/ledger.json since this entry was started, and the two changes overlap. Nothing was changed: the entry stays on its branch (cms/landing/popup) as it was; a developer brings it up to date with main, then it can be saved here again.",
    });
    expect(clone("rev-parse", "cms/landing/popup")).toBe(before);
    expect([clone("rev-parse", "--abbrev-ref", "HEAD"), clone("status", "--porcelain")]).toEqual(["main", ""]);
    // decap-server is not left mid-rebase, refusing every checkout: the next action is answered.
    const draft = await api({ action: "unpublishedEntry", params: { branch: "main", collection: "landing", slug: "popup" } });
    expect(draft.status).toBe(200);
  });
});
