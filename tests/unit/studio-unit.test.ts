/**
 * The studio's systemd unit (deploy/studio/studio.service), checked offline with systemd's own tool:
 * `systemd-analyze verify` finds nothing to say, `systemd-analyze security --offline=true` scores it at
 * most 3.0, and every setting the score still counts against it has its reason in a comment of the
 * unit. systemd need not be running; systemd-analyze must be installed (Debian: systemd), else the
 * suite is skipped locally with the apt command and fails under CI.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root.ts";
import { available, isCI, systemDeps } from "../../scripts/lib/system-deps.ts";
import { DRAIN_MS } from "../../studio/http/drain.ts";

const UNIT = join(projectRoot, "deploy", "studio", "studio.service");
const INSTALL_DIR = "/opt/studio";
const skip = !available("systemd") && !isCI();

/** The unit's `Key=value` lines (comments and sections left out). */
const settings = (text: string) =>
  text
    .split("\n")
    .filter((line) => /^[A-Z]\w*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const);

describe.skipIf(skip)("the studio's systemd unit", () => {
  const text = readFileSync(UNIT, "utf8");
  let folder = "";
  const analyze = (...args: string[]) =>
    spawnSync(systemDeps.systemd.find() ?? "systemd-analyze", args, {
      cwd: folder,
      encoding: "utf8",
      env: { ...process.env, SYSTEMD_COLORS: "0" },
    });

  beforeAll(() => {
    // Checked as installed: /opt/studio is this checkout here, so that verify finds the project's own Node.
    folder = mkdtempSync(join(tmpdir(), "studio-unit-"));
    writeFileSync(join(folder, "studio.service"), text.replaceAll(INSTALL_DIR, projectRoot));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("passes systemd-analyze verify with nothing to say", () => {
    const result = analyze("verify", "studio.service");
    expect(`${result.stdout}${result.stderr}`).toBe("");
    expect(result.status).toBe(0);
  });

  it("scores at most 3.0 in systemd-analyze security, each setting left open explained in a comment", () => {
    const result = analyze("security", "--offline=true", "--no-pager", "studio.service");
    expect(result.status).toBe(0);
    const score = Number(/Overall exposure level for studio\.service: (\d+\.\d+)/.exec(result.stdout)?.[1]);
    expect(score).toBeLessThanOrEqual(3.0);
    const open = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("✗"))
      .map((line) => line.slice(1).trim().split(/[=\s]/)[0]!);
    expect(open.length).toBeGreaterThan(0);
    // The unit's list of what is left open, each item "# - Setting[, Setting…]: why".
    const reasons = text
      .split("\n")
      .filter((line) => line.startsWith("# - "))
      .map((line) => line.slice(4, line.indexOf(":")))
      .join(", ");
    for (const name of new Set(open)) expect(reasons, `${name} is left open without a reason`).toContain(name);
  });

  it("runs the studio as a user of its own, with its state in StateDirectory=, restarted on failure and stopped gracefully", () => {
    const unit = new Map(settings(text));
    expect(unit.get("ExecStart")).toBe(`${INSTALL_DIR}/node_modules/.bin/node ${INSTALL_DIR}/studio/index.ts`);
    expect(unit.get("DynamicUser")).toBe("yes");
    expect(unit.get("StateDirectory")?.split(" ")).toContain("studio");
    expect(unit.get("Environment")).toMatch(/(^| )STUDIO_STATE_DIR=%S\/studio\//);
    expect(unit.get("Environment")).toMatch(/(^| )STUDIO_MODE=server( |$)/);
    expect(unit.get("Restart")).toBe("on-failure");
    // SIGTERM to the studio alone (it stops its own children after the drain), and time for the drain.
    expect(unit.get("KillSignal")).toBe("SIGTERM");
    expect(unit.get("KillMode")).toBe("mixed");
    expect(Number(/^(\d+)s$/.exec(unit.get("TimeoutStopSec") ?? "")?.[1]) * 1000).toBeGreaterThan(DRAIN_MS);
  });
});
