import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * The project brings its own Node through npm (docs/decisions/0001 and 0023): one optional dependency
 * per platform, each a registry package declaring `os`, `cpu` and `bin.node`. `npm ci` installs
 * exactly what package-lock.json holds, so every platform the README promises needs a locked package
 * with its integrity, and each of those Nodes must run every package in the tree.
 */
interface Locked {
  version?: string;
  integrity?: string;
  os?: string | string[];
  cpu?: string | string[];
  bin?: Record<string, string>;
  engines?: { node?: string };
  optional?: boolean;
  inBundle?: boolean;
}
const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, Locked> };

/**
 * Packages whose files the suite serves to a browser and never runs in Node: their `engines` (here,
 * ReplayWeb.page's for its desktop app's tooling) do not bind the project's Node (decision 0055).
 */
const SERVED_NOT_RUN = new Set(["node_modules/replaywebpage"]);

/** The platforms the README's "What you need" promises a Node for (Node's process.platform and arch). */
const promised = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"];

/** The locked package that brings Node on each platform, read from the optional dependencies package.json names. */
function nodePackages() {
  return Object.entries(manifest.optionalDependencies).map(([name, pinned]) => {
    const locked = lock.packages[`node_modules/${name}`];
    const list = (field: string | string[] | undefined) => [field ?? []].flat();
    const platforms = list(locked?.os).flatMap((os) => list(locked?.cpu).map((cpu) => `${os}-${cpu}`));
    return { name, pinned, locked, platforms };
  });
}

describe("the Node each platform installs", () => {
  it("every Node package package.json names is locked at its pinned version, with its integrity, os, cpu and bin", () => {
    for (const { name, pinned, locked } of nodePackages()) {
      expect(locked, `${name} is not in package-lock.json: npm ci would fail or install no Node`).toBeDefined();
      expect(locked?.version, name).toBe(pinned);
      expect(locked?.integrity, name).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
      expect(locked?.optional, name).toBe(true);
      expect(locked?.bin?.node, name).toMatch(/^bin\/node(\.exe)?$/);
    }
  });

  it.each(promised)("%s gets exactly one locked Node package", (platform) => {
    const bringing = nodePackages().filter(({ platforms }) => platforms.includes(platform));
    expect(bringing.map(({ name }) => name)).toHaveLength(1);
  });

  it("every locked Node satisfies the project's engines and those of every package in the lockfile", () => {
    const ranges = Object.entries(lock.packages)
      .filter(
        ([path, entry]) => path !== "" && entry.engines?.node && !entry.os && !entry.cpu && !entry.inBundle && !SERVED_NOT_RUN.has(path),
      )
      .map(([path, entry]) => [path, entry.engines?.node ?? ""] as const);
    expect(ranges.length).toBeGreaterThan(100);
    for (const { name, pinned } of nodePackages()) {
      expect(semver.satisfies(pinned, manifest.engines.node), `${name}@${pinned} vs engines ${manifest.engines.node}`).toBe(true);
      const refused = ranges.filter(([, range]) => !semver.satisfies(pinned, range));
      expect(
        refused.map(([path, range]) => `${path} needs ${range}`),
        `${name}@${pinned}`,
      ).toEqual([]);
    }
  });

  it("the check fails for a Node no package in the tree accepts: 24.0.0 is refused by html-validate", () => {
    const range = lock.packages["node_modules/html-validate"]?.engines?.node ?? "";
    expect(semver.satisfies("24.0.0", range)).toBe(false);
    expect(semver.satisfies("24.21.0", range)).toBe(true);
  });
});

describe("a package served, never run", () => {
  it("is a development dependency that no file imports: the one file that names it reads its bundles as files", () => {
    const dev = (JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string> }).devDependencies;
    const named = execFileSync("git", ["grep", "-l", "replaywebpage", "--", "*.ts", "*.tsx", "*.mjs", "*.js"], { encoding: "utf8" })
      .trim()
      .split("\n");
    for (const path of SERVED_NOT_RUN) {
      const name = path.slice("node_modules/".length);
      expect(dev[name], name).toBeDefined();
      expect(named.filter((file) => !file.startsWith("tests/"))).toEqual(["testing/replay-page.ts"]);
      const source = readFileSync("testing/replay-page.ts", "utf8");
      expect(source).not.toMatch(new RegExp(`(import|from)\\s*\\(?\\s*["']${name}`));
      expect(source).toContain(`resolve("${name}/index.html")`);
    }
  });
});
