/** `npm run studio:demo`: one command starts the IdP, the git host and the studio in server mode, and says how to sign in. */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root.ts";
import { DEMO_PEOPLE } from "../../testing/demo/people.ts";

let child: ChildProcess | undefined;
afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((done) => child!.once("exit", done));
  process.kill(-child.pid!, "SIGTERM");
  await exited;
});

describe("the studio's demo", () => {
  it("starts in one command, prints the studio's address and every person's password, and sends a visitor to sign in", async () => {
    child = spawn(process.execPath, ["testing/demo/index.ts"], {
      cwd: projectRoot,
      env: { ...process.env, PORT: "0" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.resume();
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on("data", () => out.includes("Ctrl+C stops the demo.") && resolve());
      child!.once("exit", (code) => reject(new Error(`the demo stopped (exit ${code}): ${out}`)));
    });
    const url = /Content studio \(server mode, demo\): (http:\/\/127\.0\.0\.1:\d+)\/admin\//.exec(out)?.[1];
    expect(url).toBeDefined();
    for (const person of DEMO_PEOPLE) expect(out).toMatch(new RegExp(`${person.email.replace(/\./g, "\\.")}\\s+\\S{12}\\s+${person.name}`));
    const admin = await fetch(`${url}/admin/`, { redirect: "manual", headers: { Accept: "text/html" } });
    expect([admin.status, admin.headers.get("location")]).toEqual([303, "/auth/login?return=%2Fadmin%2F"]);
    const login = await fetch(`${url}/auth/login`, { redirect: "manual" });
    const idp = new URL(login.headers.get("location")!);
    expect(idp.searchParams.get("code_challenge_method")).toBe("S256");
    expect(idp.searchParams.get("scope")).toBe("openid email profile");
    expect((await fetch(idp, { redirect: "manual" })).status).toBe(303);
  });
});
