/**
 * The daily drift check (lib/records/drift.ts and `npm run records:check`) against the real build,
 * served by the project's own server from copies of dist/ in a temporary folder: untouched, with one
 * sentence of the Privacy Policy edited (its .br and .gz copies deleted, so the server sends the edited
 * HTML), and with the Cookie Policy deleted (a 404 where a page should be). Copies, so that a rebuild
 * of dist/ while the tests run changes nothing they serve.
 */
import { execFile, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiteServer } from "../../server/app.ts";
import { checkDrift, formatDriftMarkdown, formatDriftText } from "../../lib/records/drift.ts";
import { UNKNOWN_PATH } from "../../lib/records/manifest.ts";
import { dist, projectRoot } from "../server/support.ts";

const BEFORE = "and loads from its servers only with your consent:";
const AFTER = "and loads from its servers whenever it likes:";

// Without Vitest's variables (a build started from here would bundle React's development build), nor a real GITHUB_OUTPUT.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && name !== "GITHUB_OUTPUT" && !name.startsWith("VITEST")),
);

let scratch: string;
const servers: Server[] = [];
const origins = { site: "", drifted: "", missing: "", closed: "", silent: "" };

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A copy of the build, changed by `edit`. */
function copyOfDist(name: string, edit: (root: string) => void = () => undefined): string {
  const root = join(scratch, name);
  cpSync(dist, root, { recursive: true });
  edit(root);
  return root;
}

function run(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("npm", ["run", "--silent", "records:check", "--", ...args], { cwd: projectRoot, env }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  // The build the check reads its pages from: made, or remade, when missing or stale.
  const build = spawnSync(process.execPath, ["scripts/ensure-build.ts"], { cwd: projectRoot, env, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), "drift-test-"));
  origins.site = await listen(createSiteServer({ root: copyOfDist("site") }));
  const drifted = copyOfDist("drifted", (root) => {
    const file = join(root, "privacy-policy.html");
    const html = readFileSync(file, "utf8");
    expect(html.split(BEFORE)).toHaveLength(2);
    writeFileSync(file, html.replace(BEFORE, AFTER));
    for (const suffix of [".br", ".gz"]) rmSync(`${file}${suffix}`);
  });
  origins.drifted = await listen(createSiteServer({ root: drifted }));
  origins.missing = await listen(
    createSiteServer({
      root: copyOfDist("missing", (root) => ["", ".br", ".gz"].forEach((s) => rmSync(join(root, `cookie-policy.html${s}`)))),
    }),
  );
  // A port nothing listens on, and a server that takes the request and never answers.
  const closed = createServer();
  origins.closed = await listen(closed);
  await new Promise((done) => closed.close(done));
  origins.silent = await listen(createServer(() => undefined));
}, 180_000);

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    if (server.listening) await new Promise((done) => server.close(done));
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const check = (origin: string, options: { fetch?: typeof fetch; timeoutMs?: number } = {}) =>
  checkDrift({ origin, dist: join(scratch, "site"), root: projectRoot, ...options });

describe("checkDrift", () => {
  it("finds every page of the untouched site to be the approved text, each named as people say it", async () => {
    const report = await check(origins.site);
    expect(report.drifted).toBe(0);
    expect(report.pages.map((p) => [p.title, p.status, p.ok])).toEqual([
      ["Landing page", 200, true],
      ["Page not found (404)", 404, true],
      ["Business Continuity Plan Summary", 200, true],
      ["Cookie Policy", 200, true],
      ["Disclosures", 200, true],
      ["Privacy Policy", 200, true],
      ["Risk Disclosures", 200, true],
      ["Terms of Service", 200, true],
    ]);
    expect(report.pages.find((p) => p.path === "/404")?.url).toBe(`${origins.site}${UNKNOWN_PATH}`);
    expect(formatDriftText(report).filter((line) => line.startsWith("✓"))).toHaveLength(8);
  });

  it("names the page whose words changed, with the words approved and the words live, and nothing else", async () => {
    const report = await check(origins.drifted);
    expect(report.drifted).toBe(1);
    const page = report.pages.find((p) => !p.ok)!;
    expect(page).toMatchObject({
      path: "/privacy-policy",
      title: "Privacy Policy",
      status: 200,
      problem: "differs from the approved text",
    });
    expect(page.removed).toEqual(["only with your consent"]);
    expect(page.added).toEqual(["whenever it likes"]);
    const text = formatDriftText(report);
    expect(text).toContain(`✗ Privacy Policy (${origins.drifted}/privacy-policy) differs from the approved text`);
    expect(text.join("\n")).toContain("its servers [-only with your consent-] {+whenever it likes+}: after you choose");
    expect(text.filter((line) => line.startsWith("✓"))).toHaveLength(7);
  });

  it("writes the issue's Markdown: the date in UTC in words, one section per differing page, at most 60 lines each", async () => {
    const report = await check(origins.drifted);
    report.checkedAt = "2026-01-05T06:17:42.000Z";
    const markdown = formatDriftMarkdown(report);
    expect(markdown).toMatch(/^## Live site check of Monday, January 5, 2026 at 6:17 AM UTC\n/);
    const sections = markdown.split(/^### /m).slice(1);
    expect(sections.map((s) => s.split("\n")[0])).toEqual(["Privacy Policy"]);
    expect(sections[0]).toContain(`<${origins.drifted}/privacy-policy> differs from the approved text.`);
    expect(sections[0]).toContain("- **Approved:** “only with your consent”\n- **Live:** “whenever it likes”");
    expect(sections[0]).toContain("<del>only with your consent</del> <ins>whenever it likes</ins>");
    expect(sections[0]!.split("\n").length).toBeLessThanOrEqual(60);
    expect(markdown.trimEnd().split("\n").at(-1)).toContain(`npm run records:check -- --origin ${origins.drifted}`);
  });

  it("reports a page that answers the wrong status, and a redirect, without following it", async () => {
    const missing = await check(origins.missing);
    expect(missing.pages.filter((p) => !p.ok)).toMatchObject([
      { title: "Cookie Policy", status: 404, problem: "answered 404 instead of 200", removed: [], added: [] },
    ]);
    // Our server redirects "/terms-of-service/" to "/terms-of-service": asked for the first, the check must not follow.
    const slash: typeof fetch = (url, init) => fetch(String(url).endsWith("/terms-of-service") ? `${String(url)}/` : url, init);
    const redirected = await check(origins.site, { fetch: slash });
    expect(redirected.pages.filter((p) => !p.ok)).toMatchObject([
      { title: "Terms of Service", status: 301, problem: "redirects (301) to /terms-of-service instead of answering 200" },
    ]);
  });

  it("throws one sentence for an origin that cannot be reached, or does not answer in time", async () => {
    await expect(check(origins.closed)).rejects.toThrow(
      new RegExp(`^${origins.closed} could not be reached: connect ECONNREFUSED [^\\n]+$`),
    );
    await expect(check(origins.silent, { timeoutMs: 300 })).rejects.toThrow(`${origins.silent} could not be reached: no answer in time`);
  });
});

describe("npm run records:check", () => {
  it("exits 0 when every page is the approved text", async () => {
    const result = await run("--origin", origins.site, "--dist", join(scratch, "site"));
    expect(result.stderr).not.toContain("records:check:");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`✓ Privacy Policy (${origins.site}/privacy-policy)`);
    expect(result.stdout).toContain("all 8 pages are the approved text of main.");
  });

  it("exits 1 on drift, with the page's title and words, and writes the report and the step's outputs", async () => {
    const report = join(scratch, "drift.md");
    const output = join(scratch, "github-output");
    writeFileSync(output, "");
    const result = await new Promise<{ status: number; stdout: string }>((resolve) =>
      execFile(
        "npm",
        ["run", "--silent", "records:check", "--", "--origin", origins.drifted, "--dist", join(scratch, "site"), "--report", report],
        { cwd: projectRoot, env: { ...env, GITHUB_OUTPUT: output } },
        (error, stdout) => resolve({ status: error ? Number(error.code) : 0, stdout }),
      ),
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("✗ Privacy Policy");
    expect(result.stdout).toContain("[-only with your consent-] {+whenever it likes+}");
    expect(result.stdout).toContain("1 of 8 pages differ from the approved text of main.");
    const markdown = readFileSync(report, "utf8");
    expect(markdown).toContain("### Privacy Policy");
    const [, delimiter, body] = /^drift=true\nreport<<(\S+)\n([\s\S]*)\1\n$/.exec(readFileSync(output, "utf8")) ?? [];
    expect(delimiter).toMatch(/^report_[0-9a-f]{32}$/);
    expect(body).toBe(markdown);
  });

  it("exits 2 with one sentence for an origin that cannot be reached, or no origin", async () => {
    const unreachable = await run("--origin", origins.closed);
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr).toMatch(new RegExp(`^records:check: ${origins.closed} could not be reached: [^\\n]+\\n$`));
    const usage = await run();
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^records:check: usage: npm run records:check -- --origin [^\n]+\n$/);
  });
});
