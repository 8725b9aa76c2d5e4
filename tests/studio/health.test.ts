/**
 * The studio's health and readiness answers, for a supervisor or a load balancer: `/healthz` while the
 * process answers, `/readyz` while its parts answer, each named when it does not (decap-server on its
 * socket, the sign-in service, the records store), the firm's git host named unreachable while the
 * studio stays ready (decision 0052), and nothing else told: no address, path or version. Faults are
 * real: decap-server's process stopped (SIGSTOP) and continued, the git host's server shut and listening
 * again, the IdP's server shut, an S3 store at an address where nothing listens.
 */
import { request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setLogSink } from "../../studio/logging.ts";
import { startTeamStudio, type TeamStudio } from "../../testing/demo/team.ts";
import { throwawayProject } from "../../testing/studio/trial.ts";
import { listenOnLoopback } from "../../lib/ports.ts";

let project: { project: string; remove(): void };
let team: TeamStudio;
const lines: string[] = [];
let restoreSink: (line: string) => void;

const PARTS = ["clone", "decap-server", "sign-in service", "records store", "git host"];
const allOk = Object.fromEntries(PARTS.map((part) => [part, "ok"]));

async function ask(url: string, path: string) {
  const answer = await fetch(`${url}${path}`, { redirect: "manual" });
  return { status: answer.status, text: await answer.text(), type: answer.headers.get("content-type") };
}

/** A GET with the Host a load balancer sends (its own name for the backend; fetch would send the URL's). */
const getWithHost = (url: string, path: string, host: string) =>
  new Promise<{ status: number; text: string; type: string | undefined }>((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { headers: { Host: host } }, (answer) => {
      let text = "";
      answer.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, text, type: answer.headers["content-type"] }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });

/**
 * /readyz until it answers `status` with `failing` named, the parts in `states` as given and every other
 * part ok (a part's state is looked at again at most once a second; on a loaded machine another part may
 * miss its 3 s for a look, and the next look settles it).
 */
async function readyzUntil(url: string, status: number, failing: string[] = [], states: Record<string, string> = {}) {
  const parts = { ...allOk, ...Object.fromEntries(failing.map((part) => [part, "failing"])), ...states };
  for (const started = Date.now(); ;) {
    const answer = await ask(url, "/readyz");
    const body = JSON.parse(answer.text) as { failing?: string[]; parts: Record<string, string> };
    const named = body.failing ?? [];
    if (
      (answer.status === status && named.join() === failing.join() && isDeepStrictEqual(body.parts, parts)) ||
      Date.now() - started > 60_000
    )
      return answer;
    await new Promise((done) => setTimeout(done, 250));
  }
}

beforeAll(async () => {
  restoreSink = setLogSink((line) => void lines.push(line));
  project = throwawayProject();
  team = await startTeamStudio({ project: project.project, folder: join(project.project, "..", "team") });
});

afterAll(async () => {
  setLogSink(restoreSink);
  await team?.stop();
  project?.remove();
});

describe("the studio's health and readiness", () => {
  it("/healthz answers 200 without a session, whatever Host a load balancer sends, and says nothing else", async () => {
    const answer = await getWithHost(team.url, "/healthz", "10.0.0.5:4323");
    expect(answer).toEqual({ status: 200, text: '{"status":"ok"}\n', type: "application/json" });
    // Any other path with that Host is refused, as before.
    expect((await getWithHost(team.url, "/admin/", "10.0.0.5:4323")).status).toBe(403);
  });

  it("/readyz answers 200 naming each part ok, and nothing more", async () => {
    const answer = await readyzUntil(team.url, 200);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ status: "ready", parts: allOk });
  });

  it("/readyz answers 503 naming decap-server while it does not answer on its socket, and 200 once it does", async () => {
    const decap = team.studio.decap.process;
    decap.kill("SIGSTOP");
    try {
      const answer = await readyzUntil(team.url, 503, ["decap-server"]);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text)).toEqual({
        status: "not ready",
        failing: ["decap-server"],
        parts: { ...allOk, "decap-server": "failing" },
      });
      // The socket's path is for the log only.
      expect(answer.text).not.toMatch(/sock|\/tmp|studio-decap/);
      expect(lines.some((line) => /"msg":"part failing","part":"decap-server"/.test(line))).toBe(true);
    } finally {
      decap.kill("SIGCONT");
    }
    expect((await readyzUntil(team.url, 200)).status).toBe(200);
    expect(lines.some((line) => /"msg":"part back","part":"decap-server"/.test(line))).toBe(true);
  });

  it("/readyz stays 200 naming the git host unreachable while it does not answer, and ok once it does", async () => {
    const remote = new URL(team.host.urlFor("studio-bot"));
    const from = lines.length;
    await team.host.outage();
    try {
      const answer = await readyzUntil(team.url, 200, [], { "git host": "unreachable" });
      // Ready: edits go on in the studio's clone and their pushes wait for the host.
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ status: "ready", parts: { ...allOk, "git host": "unreachable" } });
      expect(answer.text).not.toContain(remote.port);
      // The log says why, once, with the host's address and without the studio's token.
      const logged = lines.slice(from).filter((line) => /"msg":"part failing","part":"git host"/.test(line));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(`127.0.0.1 port ${remote.port}`);
      expect(logged[0]).not.toContain(remote.password);
    } finally {
      await team.host.restore();
    }
    const back = await readyzUntil(team.url, 200);
    expect(JSON.parse(back.text)).toEqual({ status: "ready", parts: allOk });
    expect(lines.slice(from).some((line) => /"msg":"part back","part":"git host"/.test(line))).toBe(true);
  });

  it("/readyz answers 503 naming the sign-in service when the IdP is down, without its address", async () => {
    await team.idp.stop();
    const answer = await readyzUntil(team.url, 503, ["sign-in service"]);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toEqual({
      status: "not ready",
      failing: ["sign-in service"],
      parts: { ...allOk, "sign-in service": "failing" },
    });
    expect(answer.text).not.toContain(new URL(team.idp.issuer).port);
    // /healthz still answers: the process is alive, a supervisor must not restart it for the IdP's sake.
    expect((await ask(team.url, "/healthz")).status).toBe(200);
  });
});

describe("readiness with the records store unreachable", () => {
  let other: TeamStudio;
  let closedPort = 0;
  const saved = { ...process.env };

  beforeAll(async () => {
    // An address where nothing listens: bound, then closed.
    const probe = createServer();
    closedPort = await listenOnLoopback(probe);
    await new Promise((done) => probe.close(done));
    Object.assign(process.env, {
      ARCHIVE_STORE: "s3://records-unreachable/site",
      AWS_ENDPOINT_URL: `http://127.0.0.1:${closedPort}`,
      AWS_ACCESS_KEY_ID: "test-key",
      AWS_SECRET_ACCESS_KEY: "test-secret",
      AWS_REGION: "us-east-1",
    });
    try {
      other = await startTeamStudio({ project: project.project, folder: join(project.project, "..", "team-s3") });
    } finally {
      for (const name of ["ARCHIVE_STORE", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"])
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
    }
  });
  afterAll(() => other?.stop(), 60_000);

  it("/readyz answers 503 naming the records store, and the log says why", async () => {
    const answer = await readyzUntil(other.url, 503, ["records store"]);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toEqual({
      status: "not ready",
      failing: ["records store"],
      parts: { ...allOk, "records store": "failing" },
    });
    expect(answer.text).not.toContain(String(closedPort));
    const logged = lines.find((line) => /"msg":"part failing","part":"records store"/.test(line));
    expect(logged).toContain(`127.0.0.1:${closedPort}`);
    expect(logged).not.toContain("test-secret");
  });
});
