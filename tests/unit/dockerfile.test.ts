/**
 * The Docker image's build (deploy/Dockerfile, not built here: no Docker engine) held to the rest of
 * the project by reading it: it takes every PUBLIC_* variable the site reads, by its exact name, and
 * installs exactly the lockfile.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { siteEnvNames } from "../../src/config/site.ts";

const dockerfile = readFileSync("deploy/Dockerfile", "utf8");

describe("deploy/Dockerfile", () => {
  it("takes every PUBLIC_* variable of the site's configuration as a build argument, and no other", () => {
    const args = [...dockerfile.matchAll(/^ARG (PUBLIC_\w+)$/gm)].map((m) => m[1]);
    expect(args.sort()).toEqual(Object.values(siteEnvNames).sort());
  });

  it("installs with npm ci alone, no fallback to npm install", () => {
    const installs = dockerfile.split("\n").filter((line) => /^RUN .*npm (ci|install)\b/.test(line));
    expect(installs).toEqual(["RUN npm ci --no-audit --no-fund"]);
  });
});
