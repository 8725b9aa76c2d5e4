/**
 * `npm run records:report-drift` against a small fake of GitHub's REST API on loopback, which records
 * every request: one issue for the drift (opened with its label when none is open, commented on when
 * one is), the token sent as a bearer token, and one sentence when GitHub refuses.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root.ts";

interface Recorded {
  method: string;
  url: string;
  authorization?: string;
  body?: { title?: string; body?: string; labels?: string[]; name?: string };
}

const REPO = "example-firm/website";
const TOKEN = "ghs_test-token";
const REPORT = "## Live site check of Monday, January 5, 2026 at 6:17 AM UTC\n\n### Privacy Policy\n";

let scratch: string;
let server: Server;
let api: string;
let requests: Recorded[];
/** What the fake holds: the open issues, whether the label exists, and a status to answer everything with. */
let state: {
  open: Array<{ number: number; html_url: string; pull_request?: object }>;
  label: boolean;
  refuse?: number;
  dropLabels?: boolean;
};

const read = (req: IncomingMessage) =>
  new Promise<string>((done) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => done(text));
  });

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "report-drift-test-"));
  writeFileSync(join(scratch, "drift.md"), REPORT);
  server = createServer(async (req, res) => {
    const text = await read(req);
    requests.push({
      method: req.method!,
      url: req.url!,
      authorization: req.headers.authorization,
      body: text ? JSON.parse(text) : undefined,
    });
    const reply = (status: number, data: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(data));
    const base = `/repos/${REPO}`;
    const path = req.url!.split("?")[0];
    if (state.refuse) return reply(state.refuse, { message: "Bad credentials" });
    if (req.method === "GET" && path === `${base}/labels/site-drift`)
      return state.label ? reply(200, { name: "site-drift" }) : reply(404, {});
    if (req.method === "POST" && path === `${base}/labels`) return reply(201, { name: "site-drift" });
    if (req.method === "GET" && path === `${base}/issues`) return reply(200, state.open);
    if (req.method === "POST" && path === `${base}/issues`)
      return reply(201, { number: 7, html_url: "https://github.test/7", labels: state.dropLabels ? [] : [{ name: "site-drift" }] });
    if (req.method === "POST" && path === `${base}/issues/7/labels`) return reply(200, [{ name: "site-drift" }]);
    if (req.method === "POST" && /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/.test(path!)) return reply(201, { id: 1 });
    reply(404, { message: "Not Found" });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
  state = { open: [], label: true };
});

function report(extra: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("GITHUB_"))),
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: api,
    GITHUB_SERVER_URL: "https://github.test",
    GITHUB_RUN_ID: "42",
    ...extra,
  };
  return new Promise((resolve) =>
    execFile(
      "npm",
      ["run", "--silent", "records:report-drift", "--", "--report", join(scratch, "drift.md")],
      { cwd: projectRoot, env },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe("npm run records:report-drift", () => {
  it("opens an issue with the label when none is open, sending the token as a bearer token", async () => {
    state.label = false;
    const result = await report();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("opened issue #7: https://github.test/7");
    expect(requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual([
      `GET /repos/${REPO}/labels/site-drift`,
      `POST /repos/${REPO}/labels`,
      `GET /repos/${REPO}/issues`,
      `POST /repos/${REPO}/issues`,
    ]);
    expect(requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(new URL(requests[2]!.url, api).searchParams.get("labels")).toBe("site-drift");
    expect(new URL(requests[2]!.url, api).searchParams.get("state")).toBe("open");
    const created = requests[3]!.body!;
    expect(created.title).toBe("The live site differs from the approved text");
    expect(created.labels).toEqual(["site-drift"]);
    expect(created.body).toBe(`${REPORT.trimEnd()}\n\nThe run that found it: https://github.test/${REPO}/actions/runs/42\n`);
  });

  it("labels the new issue itself when GitHub dropped the label, so that tomorrow's run finds it", async () => {
    state.dropLabels = true;
    const result = await report();
    expect(result.status).toBe(0);
    expect(requests.at(-1)).toMatchObject({ method: "POST", url: `/repos/${REPO}/issues/7/labels`, body: { labels: ["site-drift"] } });
  });

  it("comments on the open issue when there is one (a pull request with the label is not it)", async () => {
    state.open = [
      { number: 3, html_url: "https://github.test/pull/3", pull_request: {} },
      { number: 5, html_url: "https://github.test/5" },
    ];
    const result = await report();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("added the report to the open issue #5: https://github.test/5");
    expect(requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual([
      `GET /repos/${REPO}/labels/site-drift`,
      `GET /repos/${REPO}/issues`,
      `POST /repos/${REPO}/issues/5/comments`,
    ]);
    expect(requests.at(-1)!.body!.body).toContain("### Privacy Policy");
  });

  it("fails with one sentence when GitHub refuses the token", async () => {
    state.refuse = 401;
    const result = await report();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `records:report-drift: GitHub answered 401 (Bad credentials) to GET /repos/${REPO}/labels/site-drift; ` +
        "check GITHUB_TOKEN and that the job has issues: write\n",
    );
    expect(requests).toHaveLength(1);
  });

  it("fails with one sentence, asking nothing of GitHub, without a token", async () => {
    const result = await report({ GITHUB_TOKEN: "" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/^records:report-drift: GITHUB_TOKEN is not set[^\n]+\n$/);
    expect(requests).toEqual([]);
  });
});
