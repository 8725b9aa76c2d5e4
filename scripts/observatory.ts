/**
 * The MDN HTTP Observatory's own scanner, kept out of package.json: its install scripts download
 * lists from the internet, so it is installed on demand from the npm registry with --ignore-scripts
 * into .tools/observatory (ignored by git), and the two lists it would have downloaded are stubbed
 * (the HSTS preload list only matters for HTTPS sites; the TLD list only for its API server).
 *
 *   node scripts/observatory.ts 127.0.0.1:4321   scan a running server (prints the test table)
 *   node scripts/observatory.ts                  start our server on a free port and scan it
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { projectRoot } from "../lib/root.ts";

export const OBSERVATORY_VERSION = "1.4.8";
const toolDir = join(projectRoot, ".tools", "observatory");
const packageDir = join(toolDir, "node_modules", "@mdn", "mdn-http-observatory");

/** Over plain HTTP these two cannot pass: they need TLS. */
export const TLS_ONLY_TESTS = ["redirection", "strict-transport-security"];

export function ensureObservatory(): string {
  const ready = join(packageDir, "conf", "hsts-preload.json");
  if (!existsSync(ready)) {
    mkdirSync(toolDir, { recursive: true });
    // Its own package.json, or npm would walk up and install into the project.
    writeFileSync(join(toolDir, "package.json"), '{ "private": true }\n');
    const result = spawnSync(
      "npm",
      [
        "install",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--no-package-lock",
        `@mdn/mdn-http-observatory@${OBSERVATORY_VERSION}`,
      ],
      { cwd: toolDir, encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`could not install @mdn/mdn-http-observatory from the npm registry:\n${result.stderr}`);
    writeFileSync(join(packageDir, "conf", "tld-list.json"), "[]\n");
    writeFileSync(ready, "{}\n");
  }
  return packageDir;
}

export interface ObservatoryTest {
  pass: boolean;
  result: string;
  scoreModifier: number;
}
export interface ObservatoryReport {
  scan: { grade: string; score: number; statusCode: number; error: string | null; testsPassed: number; testsQuantity: number };
  tests: Record<string, ObservatoryTest>;
}

/** Scans host:port (must be 127.0.0.1:PORT, the scanner does not take a port option). */
export async function scan(hostAndPort: string): Promise<ObservatoryReport> {
  const dir = ensureObservatory();
  // The CLI, not the library: it sets up the scanner's environment and runs it in its own process.
  // Asynchronously, so a server in this same process can answer it.
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [join(dir, "bin", "wrapper.js"), hostAndPort],
      { encoding: "utf8", timeout: 30_000, maxBuffer: 16 << 20 },
      (error, out, err) => (error ? reject(new Error(`observatory scan failed: ${error.message}\n${err}`)) : resolve(out)),
    ),
  );
  return JSON.parse(stdout) as ObservatoryReport;
}

export function formatReport(report: ObservatoryReport): string {
  const rows = Object.entries(report.tests).map(
    ([name, t]) => `| ${name} | ${t.pass ? "pass" : "FAIL"} | ${t.result} | ${t.scoreModifier} |`,
  );
  return [
    `grade ${report.scan.grade} (${report.scan.score}), ${report.scan.testsPassed}/${report.scan.testsQuantity} passed`,
    "",
    "| test | | result | modifier |",
    "| --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

if (import.meta.main) {
  let target = process.argv[2];
  let close = async () => {};
  if (!target) {
    const { createSiteServer } = await import("../server/app.ts");
    const server = createSiteServer({ root: join(projectRoot, "dist") });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  }
  const report = await scan(target);
  console.log(formatReport(report));
  await close();
  const failed = Object.entries(report.tests).filter(([name, t]) => !t.pass && !TLS_ONLY_TESTS.includes(name));
  process.exit(failed.length ? 1 : 0);
}
