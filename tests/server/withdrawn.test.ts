/**
 * A withdrawn disclosure and a new one, as every host serves them: a copy of the project with two
 * disclosures added (tests/fixtures/content/), one withdrawn, approved and built with the real commands,
 * then served by our server, nginx and Cloudflare's runtime. The withdrawn address answers the same
 * notice everywhere; the new pages get every policy header and run under the build's CSP with no
 * violation, with no change of code: the page list, the headers and the hashes follow the content.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { parseHeadersFile } from "../../src/shared/security-headers.ts";
import { inlineBlocks, parseHtml } from "../../lib/html.ts";
import { sha256Base64 } from "../../lib/hash.ts";
import { expectPolicy, expectWithdrawnEverywhere, serveOnThreeHosts, type ThreeHosts } from "./three-hosts.ts";
import { send } from "./support.ts";
import { copyProject } from "../support/project-copy.ts";
import { chromiumForBlock, openWatchingCsp } from "../support/chromium.ts";

let project: string;
let three: ThreeHosts;
// Vitest's own variables (NODE_ENV=test, VITEST*) would make Astro build as under test.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));

function npm(...args: string[]) {
  const result = spawnSync("npm", ["run", "--silent", ...args], { cwd: project, encoding: "utf8", env: { ...env, NO_COLOR: "1" } });
  expect(result.status, `npm run ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`).toBe(0);
}

beforeAll(async () => {
  project = copyProject("withdrawn-");
  for (const name of ["fee-schedule-withdrawn.md", "order-routing.md"])
    cpSync(join("tests/fixtures/content", name), join(project, "src/content/disclosures", name.replace("-withdrawn", "")));
  // What a principal does for new pages: approve them (the gate then builds), as `npm run approve` records it.
  npm("approve", "--", "/fee-schedule", "/order-routing", "/disclosures", "--by", "Test Principal, Series 24");
  npm("build");
  three = await serveOnThreeHosts(project);
}, 300_000);
afterAll(async () => {
  await three?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("a withdrawn disclosure on our server, nginx and Cloudflare's runtime", () => {
  it("answers its notice with 200, noindex, every policy header, and is named by neither the index nor the sitemap", async () => {
    await expectWithdrawnEverywhere(project, three.hosts, "/fee-schedule", { title: "Fee Schedule", day: "November 20, 2026" });
  });

  it("leaves the new disclosure in force in the index and the sitemap, with every policy header", async () => {
    for (const host of three.hosts) {
      for (const path of ["/order-routing", "/disclosures"]) {
        const answer = await send(host.origin, path);
        expect(answer.status, `${host.name}: ${path}`).toBe(200);
        expect(answer.body.equals(readFileSync(join(project, "dist", `${path}.html`))), `${host.name}: ${path}`).toBe(true);
        expectPolicy(answer, host);
      }
      expect((await send(host.origin, "/disclosures")).body.toString("utf8")).toContain('href="/order-routing"');
      expect((await send(host.origin, "/sitemap.xml")).body.toString("utf8")).toContain("/order-routing</loc>");
    }
  });

  it("lists every new page in _headers, its inline code in the CSP, and records the new pages' approval", () => {
    const headers = readFileSync(join(project, "dist-static", "_headers"), "utf8");
    const csp = parseHeadersFile(headers)["Content-Security-Policy"]!;
    for (const path of ["/fee-schedule", "/order-routing", "/disclosures"]) {
      expect(headers).toMatch(new RegExp(`^${path}$`, "m"));
      const { scripts, styles } = inlineBlocks(parseHtml(readFileSync(join(project, "dist", `${path}.html`), "utf8")));
      expect(scripts.length + styles.length, path).toBeGreaterThan(0);
      for (const block of [...scripts, ...styles]) expect(csp, path).toContain(`'sha256-${sha256Base64(block)}'`);
    }
    const ledger = JSON.parse(readFileSync(join(project, "approvals/ledger.json"), "utf8")) as {
      pages: Record<string, { history: unknown[] }>;
    };
    expect(ledger.pages["/fee-schedule"]?.history).toEqual([]);
  });
});

/** The new pages' inline code runs under each host's CSP, in a browser: the head script marks the consent state, no violation. */
const browserCause = available("chromium") ? undefined : missingLine("chromium");
describe.skipIf(Boolean(browserCause) && !isCI())("the new pages in Chromium, on each host", () => {
  const browser = chromiumForBlock(browserCause);

  it.each(["/fee-schedule", "/order-routing", "/disclosures"])("%s: no CSP violation, the head script runs", async (path) => {
    for (const host of three.hosts) {
      const { page, response, errors, violations } = await openWatchingCsp(browser(), `${host.origin}${path}`);
      expect(response?.status(), `${host.name}: ${path}`).toBe(200);
      await page.locator('html[data-consent="unset"]').waitFor({ state: "attached" });
      expect(await violations(), host.name).toEqual([]);
      expect(errors, host.name).toEqual([]);
      await page.close();
    }
  });
});
