/** The team studio serving HTTPS itself (STUDIO_TLS_CERT and STUDIO_TLS_KEY), with HSTS, and plain HTTP refused on its port. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root.ts";
import { settingsFromEnv, type ServerSettings } from "../../studio/settings.ts";
import { startStudio, type RunningStudio } from "../../studio/start.ts";

let folder = "";
let studio: RunningStudio;
let cert = "";

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "studio-tls-"));
  const pem = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7 as const, ip: "127.0.0.1" }] }],
  });
  cert = pem.cert;
  writeFileSync(join(folder, "cert.pem"), pem.cert);
  writeFileSync(join(folder, "key.pem"), pem.private);
  // The firm's repository: a bare clone of this project's main.
  execFileSync("git", ["clone", "--quiet", "--bare", "--branch", "main", projectRoot, join(folder, "site.git")]);
  const settings = settingsFromEnv(
    {
      STUDIO_MODE: "server",
      STUDIO_PUBLIC_URL: "https://127.0.0.1",
      OIDC_ISSUER: "https://127.0.0.1:9",
      OIDC_CLIENT_ID: "content-studio",
      OIDC_CLIENT_SECRET: "not-a-real-secret",
      STUDIO_GIT_REMOTE: join(folder, "site.git"),
      STUDIO_TLS_CERT: join(folder, "cert.pem"),
      STUDIO_TLS_KEY: join(folder, "key.pem"),
      STUDIO_STATE_DIR: join(folder, "state"),
      PORT: "0",
    },
    projectRoot,
  ) as ServerSettings;
  studio = await startStudio(settings, projectRoot, (port) => new URL(`https://127.0.0.1:${port}`));
}, 120_000);
afterAll(async () => {
  await studio?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const get = (path: string) =>
  new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(`${studio.url}${path}`, { ca: cert, headers: { Accept: "text/html" } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on("error", reject);
    req.end();
  });

describe("the studio over HTTPS", () => {
  it("serves its pages over TLS with HSTS, and sends a visitor without a session to sign in", async () => {
    expect(studio.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const signedOut = await get("/auth/signed-out");
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers["strict-transport-security"]).toBe("max-age=31536000");
    const admin = await get("/admin/");
    expect(admin.status).toBe(303);
  });

  it("answers no plain HTTP on its port", async () => {
    await expect(fetch(studio.url.replace("https:", "http:"))).rejects.toThrow();
  });
});
