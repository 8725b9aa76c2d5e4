/**
 * deploy/README.md "Running the studio", followed on loopback: the studio started with the systemd
 * unit's own command line, working directory and environment (its `Environment=` and the example
 * environment file, each value the example names for the firm replaced by its loopback stand-in: the
 * demo's IdP, git host and Time Stamp Authority, a folder store), as the current user (systemd does not
 * run here, so its sandbox is not applied: tests/unit/studio-unit.test.ts checks that part).
 *
 * Then: /readyz answers 200; an editor and a principal sign in through the IdP in Chromium; an edit is
 * sent to review, approved and published; SIGTERM arrives while the firm's git host is taking the
 * publish's push, and the studio takes no new request, lets the publish finish, and exits 0. Its
 * stdout is one JSON line per request and per workflow event (and the one readable start line), and
 * nothing it printed holds a secret: the OpenID client's, the git host's token, a password, a cookie.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Browser, BrowserContext } from "@playwright/test";
import { studioChromium } from "../../testing/studio/browser.ts";
import { projectRoot } from "../../lib/root.ts";
import { onFreePort, PortTakenError } from "../../lib/ports.ts";
import { startDemoIdp, type DemoIdp } from "../../testing/demo/idp.ts";
import { startGitHost, STUDIO_ACCOUNT, type GitHost } from "../../testing/demo/git-host.ts";
import { startDemoTsa, type DemoTsa } from "../../testing/demo/tsa.ts";
import { throwawayProject } from "../../testing/studio/trial.ts";
import { findEntry } from "../../studio/workflow/entries.ts";
import { api, confirmItsYou, editAndSubmit, postForm, signIn, type TeamView } from "../../testing/studio/team-support.ts";

const UNIT_DIR = join(projectRoot, "deploy", "studio");
const INSTALL_DIR = "/opt/studio";
/** The PATH systemd gives a service. */
const SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const REVIEW = "/admin/review/landing/hero";

/** The unit's `[Service]` settings, as systemd reads them: a key may be given more than once. */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const match = /^([A-Z]\w*)=(.*)$/.exec(line);
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

/** An environment file's `NAME=value` lines. */
const envFile = (text: string) =>
  new Map(
    text
      .split("\n")
      .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
  );

let scratch = "";
let project: { project: string; remove(): void };
let idp: DemoIdp;
let host: GitHost;
let tsa: DemoTsa;
let browser: Browser;
let studio: ChildProcess;
let url = "";
let stdout = "";
let stderr = "";
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let team: TeamView;
const unit = unitSettings(readFileSync(join(UNIT_DIR, "studio.service"), "utf8"));
const example = envFile(readFileSync(join(UNIT_DIR, "studio.env.example"), "utf8"));
let environment: Record<string, string> = {};
/** The editor's and the principal's browser contexts. */
const sessions: BrowserContext[] = [];

/** Starts the unit's command line on `port`; a port taken meanwhile is reported as such (lib/ports.ts tries another). */
async function startService(port: number) {
  url = `http://127.0.0.1:${port}`;
  const state = join(scratch, "state");
  // What StateDirectory=studio studio/work studio/records makes before the start.
  for (const name of unit.get("StateDirectory")![0]!.split(" ")) mkdirSync(join(state, name), { recursive: true });
  const expand = (value: string) => value.replaceAll("%S", state).replaceAll(INSTALL_DIR, project.project);
  // The example's values for the firm, each replaced by its loopback stand-in; every other line as the example has it.
  const loopback: Record<string, string> = {
    STUDIO_PUBLIC_URL: url,
    HOST: "127.0.0.1",
    PORT: String(port),
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    STUDIO_GIT_REMOTE: host.urlFor(STUDIO_ACCOUNT),
    ARCHIVE_STORE: join(scratch, "records"),
    ARCHIVE_TSA_CA: tsa.caFile,
  };
  for (const name of Object.keys(loopback)) expect(example.has(name), `studio.env.example names ${name}`).toBe(true);
  const fromUnit = unit
    .get("Environment")!
    .flatMap((line) => line.split(" "))
    .map((pair) => [pair.slice(0, pair.indexOf("=")), expand(pair.slice(pair.indexOf("=") + 1))]);
  environment = { PATH: SYSTEMD_PATH, ...Object.fromEntries(fromUnit), ...Object.fromEntries(example), ...loopback };
  const [command, ...args] = expand(unit.get("ExecStart")![0]!).split(" ");
  stdout = "";
  stderr = "";
  studio = spawn(command!, args, { cwd: expand(unit.get("WorkingDirectory")![0]!), env: environment, stdio: ["ignore", "pipe", "pipe"] });
  studio.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  studio.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  exited = new Promise((resolve) => studio.once("exit", (code, signal) => resolve({ code, signal })));
  const outcome = await Promise.race([
    exited,
    vi
      .waitUntil(() => stdout.includes(`Content studio: ${url}/admin/`), { timeout: 120_000, interval: 100 })
      .then(() => "started" as const),
  ]);
  if (outcome === "started") return;
  if (stderr.includes(`Port ${port} is in use`)) throw new PortTakenError(stderr);
  throw new Error(`the studio stopped as it started (${JSON.stringify(outcome)}):\n${stderr}`);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "studio-deploy-"));
  project = throwawayProject();
  host = await startGitHost(project.project, join(scratch, "host"));
  idp = await startDemoIdp();
  tsa = await startDemoTsa();
  browser = await studioChromium();
  // The IdP knows the studio's address before it starts: a port picked first, another if it was taken meanwhile.
  await onFreePort(async (port) => {
    idp.register(`http://127.0.0.1:${port}`);
    await startService(port);
  });
  team = {
    url,
    browser,
    person: (email) => idp.users.find((u) => u.email === email)!,
    clone: (...args) => spawnGit(repo(), args),
  };
}, 240_000);

afterAll(async () => {
  if (studio && studio.exitCode === null && studio.signalCode === null) {
    studio.kill("SIGKILL");
    await exited;
  }
  await browser?.close();
  await Promise.all([idp?.stop(), host?.stop(), tsa?.stop()]);
  project?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

function spawnGit(cwd: string, args: string[]): string {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/**
 * The git host holds every push until the test releases it (a pre-receive hook before the host's own,
 * which says it is waiting): the moment to stop the studio in the middle of a publish, by construction.
 */
function holdPushes(bare: string) {
  const hooks = join(bare, "hooks");
  renameSync(join(hooks, "pre-receive"), join(hooks, "pre-receive.host"));
  writeFileSync(
    join(hooks, "pre-receive"),
    `#!/bin/sh
touch "$GIT_DIR/push-waiting"
while [ ! -f "$GIT_DIR/push-released" ]; do sleep 0.1; done
exec "$GIT_DIR/hooks/pre-receive.host"
`,
  );
  chmodSync(join(hooks, "pre-receive"), 0o755);
  return {
    waiting: () => existsSync(join(bare, "push-waiting")),
    release: () => writeFileSync(join(bare, "push-released"), ""),
  };
}

const origin = (...args: string[]) => spawnGit(host.bare, args);
const repo = () => join(scratch, "state", "studio", "server", "repo");

describe("deploy/README.md's Running the studio, on loopback", () => {
  it("the unit's command line and environment start the studio, and /readyz answers 200", async () => {
    const parts = { clone: "ok", "decap-server": "ok", "sign-in service": "ok", "records store": "ok", "git host": "ok" };
    let answer: { status: number; body: unknown } | undefined;
    // A look that misses its 3 s on a loaded machine names a part failing (503) or the git host unreachable (200): the next settles it.
    await vi.waitUntil(
      async () => {
        const response = await fetch(`${url}/readyz`);
        answer = { status: response.status, body: await response.json() };
        return answer.status === 200 && isDeepStrictEqual(answer.body, { status: "ready", parts });
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(answer).toEqual({ status: 200, body: { status: "ready", parts } });
    // The unit's own settings reached it: its clone is in the state directory, under the unit's name.
    expect(existsSync(join(repo(), ".git"))).toBe(true);
    expect(environment.STUDIO_MODE).toBe("server");
  });

  it("an editor and a principal sign in, an edit is sent to review and approved", async () => {
    const erin = await signIn(team, "erin.editor@example.com", "/admin/approvals");
    await editAndSubmit(team, erin.context, "hero", (raw) => raw.replace(/^headline: .*$/m, "headline: Settlement, run as a service"));
    const pat = await signIn(team, "pat.example@example.com", REVIEW);
    await confirmItsYou(team, pat.page, "pat.example@example.com", REVIEW);
    const approved = await postForm(team, pat.page, REVIEW, { decision: "approve", comment: "" });
    expect(approved.status).toBe(303);
    expect(findEntry(repo(), "landing", "hero")?.status).toBe("pending_publish");
    sessions.push(erin.context, pat.context);
  }, 400_000);

  it("SIGTERM during the publish: no new request is taken, the publish finishes, the studio exits 0", async () => {
    const before = origin("rev-parse", "main");
    const gate = holdPushes(host.bare);
    const publishing = api(team, sessions[0]!, "publishUnpublishedEntry", { branch: "main", collection: "landing", slug: "hero" });
    await vi.waitUntil(gate.waiting, { timeout: 180_000, interval: 100 });
    studio.kill("SIGTERM");
    await vi.waitUntil(() => stdout.includes('"msg":"stopping"'), { timeout: 10_000, interval: 50 });
    // Stopping: a new request is refused (no new connection is taken), while the publish waits on the host.
    const late = await fetch(`${url}/healthz`).then(
      (answer) => answer.status,
      () => "refused",
    );
    expect([503, "refused"]).toContain(late);
    gate.release();
    const published = await publishing;
    expect(published.status).toBe(200);
    expect(String(published.body.message)).toMatch(/^Published Landing page: Hero: the firm's repository has it/);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(origin("rev-parse", "main^1")).toBe(before);
    expect(origin("show", "main:src/content/landing/hero.yaml")).toContain("headline: Settlement, run as a service");
    expect(origin("show", "studio-log:events.jsonl")).toContain('"event":"published"');
  }, 400_000);

  it("printed one readable start line, and otherwise one JSON line per request and per workflow event, and no secret", async () => {
    // Every line is JSON but the one start line for a person (lines of the start itself, such as old builds removed, may come before it).
    const printed = stdout.trimEnd().split("\n");
    const sentences = printed.filter((line) => !line.startsWith("{"));
    expect(sentences).toHaveLength(1);
    expect(sentences[0]).toMatch(new RegExp(`^Content studio: ${url}/admin/ \\(server mode`));
    const lines = printed.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === "started")).toMatchObject({ url, mode: "server" });
    for (const line of lines) expect(typeof line.time === "string" && typeof line.msg === "string").toBe(true);
    const requests = lines.filter((line) => line.msg === "request");
    for (const line of requests) expect(Object.keys(line)).toEqual(expect.arrayContaining(["id", "method", "route", "status", "ms"]));
    const erin = team.person("erin.editor@example.com");
    expect(requests).toContainEqual(expect.objectContaining({ method: "POST", route: "/api/v1", status: 200, subject: erin.sub }));
    expect(lines.filter((line) => line.msg === "workflow").map((line) => line.event)).toEqual(["submitted", "approved", "published"]);
    // The build worker was warmed as the studio started (decision 0054): its first build was main's (or a
    // warm-up build of main, when main's was already there), not the entry's. The review asked for meanwhile
    // may be answered "preparing" before any build ends (a loaded machine), so the order of builds is what counts.
    const builds = lines.filter((line) => line.msg === "build worker warmed" || line.msg === "preview built");
    expect(builds[0], printed.filter((line) => /"msg":"(preview built|build worker warmed|started)"/.test(line)).join("\n")).toBeDefined();
    const submitted = lines.find((line) => line.msg === "workflow" && line.event === "submitted")!;
    const entryTree = spawnGit(repo(), ["rev-parse", `${String(submitted.commit)}^{tree}`]);
    expect(builds[0]!.tree ?? "warm-up").not.toBe(entryTree);
    const secrets = [
      idp.clientSecret,
      new URL(host.urlFor(STUDIO_ACCOUNT)).password,
      ...idp.users.map((user) => user.password),
      ...(await Promise.all(sessions.map((context) => context.cookies()))).flat().map((cookie) => cookie.value),
    ];
    for (const secret of secrets) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
    // Neither an authorization code nor an ID token (a JWT) is ever printed.
    expect(`${stdout}${stderr}`).not.toMatch(/[?&]code=|eyJ[\w-]+\.eyJ/);
  });
});
