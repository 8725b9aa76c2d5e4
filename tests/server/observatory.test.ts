/**
 * The MDN HTTP Observatory scanner (installed on demand into .tools/, see scripts/observatory.ts)
 * against our server and against nginx with the production config: over plain HTTP every test passes
 * except redirection and HSTS, which need TLS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNginx, type LocalNginx } from "../../testing/nginx-local.ts";
import { ensureObservatory, scan, TLS_ONLY_TESTS, type ObservatoryReport } from "../../scripts/observatory.ts";
import { available, isCI } from "../../scripts/lib/system-deps.ts";
import { startServer, type Running } from "./support.ts";

// nginx's half is skipped locally when nginx is missing (one line names the apt command); CI fails instead.
const withNginx = available("nginx") || isCI();

const EXPECTED_TESTS = [
  "content-security-policy",
  "cookies",
  "cross-origin-resource-sharing",
  "redirection",
  "referrer-policy",
  "strict-transport-security",
  "subresource-integrity",
  "x-content-type-options",
  "x-frame-options",
  "cross-origin-resource-policy",
];

let server: Running;
let nginx: LocalNginx;
beforeAll(async () => {
  // First run in a fresh checkout: about 15 s from the npm registry; afterwards instant.
  ensureObservatory();
  server = await startServer();
  if (withNginx) nginx = await startNginx();
});
afterAll(async () => {
  await server?.close();
  await nginx?.stop();
});

const targets: Array<[string, () => string, boolean]> = [
  ["npm start's server", () => `127.0.0.1:${server.port}`, false],
  ["nginx (deploy/nginx)", () => `127.0.0.1:${nginx.port}`, !withNginx],
];

for (const [name, target, skip] of targets)
  describe.skipIf(skip)(`MDN HTTP Observatory against ${name}`, () => {
    let report: ObservatoryReport;
    beforeAll(async () => {
      report = await scan(target());
    });

    it("scanned the site itself", () => {
      expect(report.scan.error).toBeNull();
      expect(report.scan.statusCode).toBe(200);
      expect(Object.keys(report.tests).sort()).toEqual([...EXPECTED_TESTS].sort());
    });

    it.each(EXPECTED_TESTS.filter((t) => !TLS_ONLY_TESTS.includes(t)))("%s passes", (name) => {
      const test = report.tests[name];
      expect(test?.pass, `${name}: ${test?.result}`).toBe(true);
    });

    it("the CSP is graded as having nothing unsafe and default-src 'none'", () => {
      expect(report.tests["content-security-policy"]?.result).toBe("csp-implemented-with-no-unsafe-default-src-none");
    });

    it("only the TLS-only tests fail, for the plain-HTTP reason", () => {
      expect(report.tests.redirection?.result).toBe("redirection-missing");
      expect(report.tests["strict-transport-security"]?.result).toBe("hsts-not-implemented-no-https");
      expect(report.scan.testsPassed).toBe(EXPECTED_TESTS.length - TLS_ONLY_TESTS.length);
    });
  });
