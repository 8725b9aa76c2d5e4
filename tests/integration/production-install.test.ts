/**
 * A production install, as a firm's host or image makes it: a fresh clone of this repository installed
 * with `npm ci --omit=dev` (the npm cache may serve the packages; this project's node_modules is never
 * used), then, from that clone, the commands production runs: `npm start` (which builds the site first),
 * `STUDIO_MODE=server npm run studio` against the tests' IdP and git host, with a person signed in
 * through the IdP, and `npm run records:capture`, `records:verify` and `records:export`. A devDependency any of
 * them imports fails here, as it would on the host. One install for every case.
 *
 * Without Chromium the capture's case is skipped locally (one line names the apt command); with CI=true
 * it fails.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { osFreePort } from "../../lib/ports.ts";
import { startDemoIdp, type DemoIdp } from "../../testing/demo/idp.ts";
import { startGitHost, STUDIO_ACCOUNT, type GitHost } from "../../testing/demo/git-host.ts";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { freshClone, runCommand, shellEnv, startCommand, type Serving } from "../support/commands.ts";
import { signInByForm } from "../support/sign-in.ts";
import { serverStudioEnv } from "../../testing/studio/server-studio.ts";
import { FEW_PAGES, smallDist } from "../support/small-dist.ts";

const noChromium = available("chromium") ? undefined : missingLine("chromium");
if (noChromium && !isCI()) console.log(`production install: the capture's case is skipped: ${noChromium}`);

let clone: Awaited<ReturnType<typeof freshClone>>;
let project = "";
let installSeconds = 0;
/** What a production host's shell has: NODE_ENV=production, as a service's environment sets it. */
const env = (extra: Record<string, string> = {}) => shellEnv({ NODE_ENV: "production", ...extra });
const npm = (args: string[], extra: Record<string, string> = {}) => runCommand("npm", args, { cwd: project, env: env(extra) });
const running: Serving[] = [];

beforeAll(async () => {
  clone = await freshClone("production-install-");
  project = clone.dir;
  const started = performance.now();
  const installed = await npm(["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"]);
  installSeconds = (performance.now() - started) / 1000;
  expect(installed.status, installed.output).toBe(0);
  const size = await runCommand("du", ["-sm", "node_modules"], { cwd: project });
  console.log(`production install: npm ci --omit=dev took ${installSeconds.toFixed(1)} s; node_modules ${size.output.split("\t")[0]} MB`);
}, 600_000);
afterAll(async () => {
  await Promise.all(running.map((command) => command.stop()));
  await clone?.remove();
}, 600_000);

describe("npm ci --omit=dev, then the production commands from that install", () => {
  it("installs no devDependency: no test runner, no test IdP, no test browser driver", () => {
    for (const dev of ["vitest", "@playwright/test", "oidc-provider", "puppeteer-core", "eslint"])
      expect(existsSync(join(project, "node_modules", dev)), dev).toBe(false);
    // What production needs instead, and the Node the project brings.
    for (const runtime of ["playwright-core", "hono", "decap-server", "astro"])
      expect(existsSync(join(project, "node_modules", runtime)), runtime).toBe(true);
    expect(existsSync(join(project, "node_modules", ".bin", "node"))).toBe(true);
  });

  it("npm start builds the site and serves / with 200 and an unknown path with 404", async () => {
    const server = await startCommand("npm", ["start"], {
      cwd: project,
      env: env({ PORT: "0", HOST: "127.0.0.1" }),
      ready: /Serving dist\/ at (http:\/\/127\.0\.0\.1:\d+)/,
    });
    running.push(server);
    const origin = server.match[1]!;
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<html");
    expect((await fetch(`${origin}/no-such-page`)).status).toBe(404);
    expect(server.output()).toMatch(/dist\/ is missing or stale: building/);
    await server.stop();
  }, 300_000);

  describe("STUDIO_MODE=server npm run studio, against the tests' IdP and git host", () => {
    let idp: DemoIdp;
    let host: GitHost;
    let studio: Serving;
    let url = "";

    beforeAll(async () => {
      host = await startGitHost(project, join(project, "..", "git-host"));
      idp = await startDemoIdp();
      mkdirSync(join(project, "..", "studio-state"));
      // The studio's public address names its port, which the IdP must know before anyone signs in: a
      // port the OS says is free, tried again if another process takes it first.
      for (let attempt = 1; !studio; attempt++) {
        const port = await osFreePort();
        url = `http://127.0.0.1:${port}`;
        idp.register(url);
        try {
          studio = await startCommand("npm", ["run", "studio"], {
            cwd: project,
            env: env(
              serverStudioEnv({ url, port, idp, remote: host.urlFor(STUDIO_ACCOUNT), stateDir: join(project, "..", "studio-state") }),
            ),
            ready: /Content studio: (http:\/\/127\.0\.0\.1:\d+)\/admin\//,
            timeoutMs: 180_000,
          });
        } catch (error) {
          if (attempt >= 3 || !/is in use/.test(String(error))) throw error;
        }
      }
      running.push(studio);
    }, 300_000);
    afterAll(async () => {
      await studio?.stop();
      await Promise.all([idp?.stop(), host?.stop()]);
    });

    it("starts, and sends a visitor without a session to sign in at the IdP", async () => {
      expect(studio.match[1]).toBe(url);
      const admin = await fetch(`${url}/admin/`, { redirect: "manual", headers: { Accept: "text/html" } });
      expect([admin.status, admin.headers.get("location")]).toEqual([303, "/auth/login?return=%2Fadmin%2F"]);
      const login = await fetch(`${url}/auth/login`, { redirect: "manual" });
      expect(login.status).toBe(303);
      expect(new URL(login.headers.get("location")!).origin).toBe(idp.issuer);
    });

    it("signs an editor in through the IdP, serves Decap and answers the git API through decap-server", async () => {
      const erin = idp.users.find((user) => user.email === "erin.editor@example.com")!;
      const jar = await signInByForm(url, erin.email, erin.password);
      const admin = await jar.fetch(`${url}/admin/`, { headers: { Accept: "text/html" } });
      expect(admin.status).toBe(200);
      const page = await admin.text();
      const src = /src="(\/admin\/decap\/[0-9a-f]{16}\/decap-cms\.js)"/.exec(page)?.[1];
      expect(src, page).toBeDefined();
      const bundle = await jar.fetch(`${url}${src!}`);
      expect(bundle.status).toBe(200);
      expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
      const entries = await jar.fetch(`${url}/api/v1`, {
        method: "POST",
        headers: { "content-type": "application/json", Origin: url, "Sec-Fetch-Site": "same-origin" },
        body: JSON.stringify({
          action: "entriesByFolder",
          params: { branch: "main", folder: "src/content/legal", extension: "md", depth: 1 },
        }),
      });
      const body = (await entries.json()) as Array<{ file: { path: string } }>;
      expect(entries.status, JSON.stringify(body)).toBe(200);
      expect(body.map(({ file }) => file.path)).toContain("src/content/legal/privacy-policy.md");
    });
  });

  describe.skipIf(noChromium && !isCI())("the records: npm run records:capture, records:verify and records:export", () => {
    it("captures the site, verifies the capture, and exports the day for an examiner, which verifies too", async () => {
      if (noChromium) throw new Error(noChromium);
      const store = join(project, "..", "archive");
      // Two pages and the 404 of the build npm start made (tests/support/small-dist.ts): the commands from this
      // install are the subject here; every page is captured in capture.test.ts and readme-commands.test.ts.
      const pages = smallDist(join(project, "dist"), FEW_PAGES, join(project, "..", "pages-dist"));
      const archived = await npm(["run", "records:capture", "--", "--dist", pages], { ARCHIVE_STORE: store });
      expect(archived.status, archived.output).toBe(0);
      const [capture, ...others] = readdirSync(store).filter((name) => !name.startsWith("."));
      expect(others).toEqual([]);
      const verified = await npm(["run", "records:verify", "--", join(store, capture!)]);
      expect(verified.status, verified.output).toBe(0);
      expect(verified.output).not.toContain("✗");
      const day = new Date().toISOString().slice(0, 10);
      const zip = join(project, "..", "export.zip");
      const exported = await npm(["run", "records:export", "--", "--dates", day, "--out", zip, "--by", "Production Test"], {
        ARCHIVE_STORE: store,
      });
      expect(exported.status, exported.output).toBe(0);
      const zipVerified = await npm(["run", "records:verify", "--", zip]);
      expect(zipVerified.status, zipVerified.output).toBe(0);
    }, 300_000);
  });
});
