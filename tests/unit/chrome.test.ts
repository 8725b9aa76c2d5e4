import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { findTestChrome } from "../../lib/chrome.ts";

const saved = { PATH: process.env.PATH, CHROME_PATH: process.env.CHROME_PATH };
const folder = mkdtempSync(join(tmpdir(), "chrome-"));
const program = (name: string) => {
  const path = join(folder, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
};
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the Chromium the suites drive (lib/chrome.ts)", () => {
  it("is the headless shell found on PATH, and CHROME_PATH wins over it", () => {
    const shell = program("chromium-headless-shell");
    delete process.env.CHROME_PATH;
    process.env.PATH = `${folder}:${saved.PATH ?? ""}`;
    expect(findTestChrome()).toBe(shell);
    process.env.CHROME_PATH = program("another-chrome");
    expect(findTestChrome()).toBe(process.env.CHROME_PATH);
  });
});
