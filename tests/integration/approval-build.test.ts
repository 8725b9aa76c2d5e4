import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAFT_NOTICE, parseLedger, PREVIEW_TEXTS_FILE } from "../../lib/approval/ledger.ts";
import { sha256Base64 } from "../../lib/hash.ts";
import { extractPageText, pageTextHash } from "../../lib/approval/text.ts";
import { copyProject } from "../support/project-copy.ts";
import { factsOf } from "../../lib/approval/facts.ts";
import { site } from "../../src/config/site.ts";
import { osFreePort } from "../../lib/ports.ts";

/**
 * The approval gate through the real commands, on a copy of the project (so that it does not depend
 * on today's wording, which the team keeps changing): the copy's pages are approved first, then a
 * style change, a text change, the preview, the dev server and an approval run in turn.
 */
let project: string;
const principal = "Test Principal, Series 24";
// Vitest's own variables (NODE_ENV=test, VITEST*) would make Astro build and serve as under test.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));

function npm(...args: string[]) {
  const result = spawnSync("npm", ["run", "--silent", ...args], {
    cwd: project,
    encoding: "utf8",
    env: { ...env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const read = (file: string) => readFileSync(join(project, file), "utf8");
const edit = (file: string, change: (text: string) => string) => writeFileSync(join(project, file), change(read(file)));
const ledger = () => parseLedger(read("approvals/ledger.json"));

beforeAll(() => {
  project = copyProject("approval-build-");
  // The copy starts from its own approvals of whatever the text is today (its roster and review policy stay).
  rmSync(join(project, "approvals/ledger.json"), { force: true });
  rmSync(join(project, "approvals/text"), { recursive: true, force: true });
  const approved = npm("approve", "--", "--all", "--by", principal);
  expect(approved.status, approved.stderr).toBe(0);
}, 180_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("approval before publication", () => {
  it("approves every page of the copy with the principal's name and the time", () => {
    const pages = ledger().pages;
    expect(Object.keys(pages)).toContain("/cookie-policy");
    for (const entry of Object.values(pages)) {
      expect(entry.approvedBy).toBe(principal);
      expect(Date.now() - Date.parse(entry.approvedOn)).toBeLessThan(10 * 60_000);
    }
    expect(pageTextHash(read("approvals/text/cookie-policy.txt"))).toBe(pages["/cookie-policy"]!.sha256);
  });

  it("builds after a change of markup and style alone, without a new approval", () => {
    appendFileSync(join(project, "src/styles/global.css"), "\n.style-only-change { letter-spacing: 0.01em; }\n");
    edit("src/components/sections/Footer.tsx", (t) => t.replace('className="', 'className="style-only-change '));
    const build = npm("build");
    expect(build.status, build.stderr).toBe(0);
    expect(read("dist/index.html")).toContain("style-only-change");
  });

  it("fails the production build on a changed text, one line naming the page, its content file and the approve command", () => {
    appendFileSync(join(project, "src/content/legal/cookie-policy.md"), "\nThis sentence was added after approval.\n");
    const build = npm("build");
    expect(build.status).not.toBe(0);
    const lines = build.stderr.split("\n").filter((line) => line.startsWith("approval:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("/cookie-policy differs from its approved text");
    expect(lines[0]).toContain("src/content/legal/cookie-policy.md");
    expect(lines[0]).toContain('npm run approve -- /cookie-policy --by "');
    // Nothing is left that could be deployed by mistake.
    expect(existsSync(join(project, "dist/cookie-policy.html"))).toBe(false);
  });

  it("shows the draft marking in npm run dev", async () => {
    // A port the OS had free; astro dev takes the next one if another process took it since, and prints the one it took.
    const port = String(await osFreePort());
    const dev = spawn(process.execPath, ["node_modules/astro/bin/astro.mjs", "dev", "--host", "127.0.0.1", "--port", port], {
      cwd: project,
      env: { ...env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let output = "";
        dev.on("exit", (code) => reject(new Error(`astro dev exited (${code}) before it listened:\n${output}`)));
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const url = /https?:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
          if (url) resolve(url);
        };
        dev.stdout.on("data", onData);
        dev.stderr.on("data", onData);
      });
      // The server listens before its routes are ready; ask until a page renders (within the test's ceiling).
      while ((await fetch(`${origin}/privacy-policy`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
      const changed = await (await fetch(`${origin}/cookie-policy`)).text();
      const unchanged = await (await fetch(`${origin}/privacy-policy`)).text();
      expect(changed).toContain(DRAFT_NOTICE);
      expect(changed).toContain('<meta name="robots" content="noindex">');
      expect(unchanged).not.toContain(DRAFT_NOTICE);
    } finally {
      dev.kill();
    }
  });

  it("builds unapproved text in the preview, into dist-preview/, with a draft banner and noindex on that page only", () => {
    const preview = npm("build:preview");
    expect(preview.status, preview.stderr).toBe(0);
    const changed = read("dist-preview/cookie-policy.html");
    const unchanged = read("dist-preview/privacy-policy.html");
    expect(changed).toContain(DRAFT_NOTICE);
    expect(changed).toMatch(/<meta name="robots" content="noindex">/);
    expect(unchanged).not.toContain(DRAFT_NOTICE);
    expect(unchanged).not.toContain('name="robots"');
    // The banner's <style> is allowed by a hash in the preview's own CSP, like every inline style.
    const style = /<style>(\.approval-draft\{[^<]*)<\/style>/.exec(changed)?.[1] ?? "";
    expect(style).not.toBe("");
    const styleHash = `'sha256-${sha256Base64(style)}'`;
    expect(read("dist-preview/_headers")).toContain(styleHash);
    expect(existsSync(join(project, "dist/cookie-policy.html"))).toBe(false);
    // Never published: no precompressed copies and no folder for a static host.
    expect(existsSync(join(project, "dist-preview/cookie-policy.html.br"))).toBe(false);
    // Only what a review shows: no social cards (the published build has them, tests/server/hosts.test.ts).
    expect(existsSync(join(project, "dist-preview/og"))).toBe(false);
    expect(read("dist-preview/cookie-policy.html")).toContain('og:image" content="https://www.example.com/og/cookie-policy.png"');
    expect(existsSync(join(project, "dist-preview-static"))).toBe(false);
    // The text beside the preview is the text without the banner.
    const texts = JSON.parse(read(`dist-preview/${PREVIEW_TEXTS_FILE}`)).pages;
    expect(texts["/cookie-policy"].text).toContain("This sentence was added after approval.");
    expect(texts["/cookie-policy"].text).not.toContain(DRAFT_NOTICE);
    expect(pageTextHash(extractPageText(unchanged))).toBe(ledger().pages["/privacy-policy"]!.sha256);
  });

  it("records the approval of the changed page from the current preview, keeping the previous approval", () => {
    const before = ledger().pages["/cookie-policy"]!;
    const approve = npm("approve", "--", "/cookie-policy", "--by", "Second Principal, Series 24");
    expect(approve.status, approve.stderr).toBe(0);
    expect(approve.stdout).not.toContain("building the preview");
    expect(approve.stdout).toContain("approved /cookie-policy");
    const after = ledger().pages["/cookie-policy"]!;
    expect(after.approvedBy).toBe("Second Principal, Series 24");
    expect(after.sha256).not.toBe(before.sha256);
    expect(after.history).toEqual([
      { sha256: before.sha256, textRule: "page-text/2", approvedBy: before.approvedBy, approvedOn: before.approvedOn, facts: before.facts },
    ]);
    // The site's material facts as the approval was made (issue 54): a later change makes the page due for review.
    expect(after.facts).toEqual(factsOf(site));
    expect(after.facts).toMatchObject({ brokerDealerCrd: site.brokerDealerCrd });
    expect(read("approvals/text/cookie-policy.txt")).toContain("This sentence was added after approval.");
    expect(ledger().pages["/privacy-policy"]!.approvedBy).toBe(principal);
  });

  it("builds once the changed text is approved", () => {
    const build = npm("build");
    expect(build.status, build.stderr).toBe(0);
    expect(read("dist/cookie-policy.html")).toContain("This sentence was added after approval.");
    expect(read("dist/cookie-policy.html")).not.toContain(DRAFT_NOTICE);
  });

  it("holds a changed link target unapproved, every word the same, until a principal approves it", () => {
    const phish = "https://finra-brokercheck.example-phish.net";
    edit("src/content/legal/risk-disclosures.md", (t) => t.replace("[FINRA](https://www.finra.org)", `[FINRA](${phish})`));
    const build = npm("build");
    expect(build.status).not.toBe(0);
    expect(build.stderr).toContain("approval: /risk-disclosures differs from its approved text");
    expect(existsSync(join(project, "dist/risk-disclosures.html"))).toBe(false);
    // What the principal is asked to approve names the new destination.
    const diff = npm("approve", "--", "--diff");
    expect(diff.status, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(`changed destination: FINRA: https://www.finra.org → ${phish}`);
    expect(diff.stdout).not.toContain("every page's text is the approved one");
    const approve = npm("approve", "--", "/risk-disclosures", "--by", principal);
    expect(approve.status, approve.stderr).toBe(0);
    expect(read("approvals/text/risk-disclosures.txt")).toContain(`[link] FINRA: ${phish}`);
    const approved = npm("build");
    expect(approved.status, approved.stderr).toBe(0);
    expect(read("dist/risk-disclosures.html")).toContain(`href="${phish}"`);
  }, 240_000);

  it("refuses a build whose page has an inline script the project does not write, naming the page; no hash is given to it", () => {
    const original = read("src/pages/disclosures.astro");
    edit("src/pages/disclosures.astro", (t) =>
      t.replace(/<\/BaseLayout>\s*$/, '<script is:inline>document.title = "unknown";</script>\n</BaseLayout>\n'),
    );
    try {
      const build = npm("build");
      expect(build.status).not.toBe(0);
      expect(build.stderr).toContain(
        'publish: /disclosures (disclosures.html) has an inline script the project does not write ("document.title = "unknown";")',
      );
      // Nothing was left to deploy, and no policy allows it.
      expect(existsSync(join(project, "dist/disclosures.html"))).toBe(false);
      expect(existsSync(join(project, "dist/_headers"))).toBe(false);
    } finally {
      writeFileSync(join(project, "src/pages/disclosures.astro"), original);
    }
  });
});

describe("the principals' roster", () => {
  it("fails the build naming the roster's file and field when it breaks its schema", () => {
    const roster = [
      {
        email: "pat.example@example.com",
        name: "Pat Example",
        crd: "CRD 1",
        registrations: ["Series 24"],
        from: "2026-01-02",
        until: null,
      },
    ];
    const kept = read("approvals/roster.json");
    writeFileSync(join(project, "approvals/roster.json"), JSON.stringify(roster));
    try {
      const build = npm("build");
      expect(build.status).not.toBe(0);
      expect(`${build.stdout}${build.stderr}`).toContain("approvals/roster.json: 0.crd: the CRD number, digits only");
    } finally {
      writeFileSync(join(project, "approvals/roster.json"), kept);
    }
  });
});

describe("the review policy", () => {
  it("fails the build naming the file and the line of a page that does not exist and of an interval that does not parse", () => {
    const kept = read("approvals/review-policy.yaml");
    const lines = kept.split("\n");
    const line = (text: string) => lines.indexOf(text) + 1;
    edit("approvals/review-policy.yaml", (text) =>
      text
        .replace("  /cookie-policy:", "  /cookie-policies:")
        .replace("  /terms-of-service:\n    interval: P12M", "  /terms-of-service:\n    interval: yearly"),
    );
    try {
      const build = npm("build");
      expect(build.status).not.toBe(0);
      const output = `${build.stdout}${build.stderr}`;
      expect(output).toContain(
        `approvals/review-policy.yaml:${line("  /cookie-policy:")}: pages: /cookie-policies is not a page of the site`,
      );
      expect(output).toContain(
        `approvals/review-policy.yaml:${line("  /terms-of-service:") + 1}: pages./terms-of-service.interval: "yearly" is not an ISO 8601 duration`,
      );
    } finally {
      writeFileSync(join(project, "approvals/review-policy.yaml"), kept);
    }
  });
});
