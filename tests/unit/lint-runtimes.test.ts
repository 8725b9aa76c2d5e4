import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

/** The rules that fire on `code` as if it were the file at `filePath` (nothing is written). */
async function rulesFiring(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.ruleId);
}

describe("ESLint keeps each folder's code to where it runs", () => {
  it.each([
    // the browser's own code: no Node module, by either name, no Node global
    ["src/client/x.ts", 'import { readFileSync } from "node:fs";\nexport const a = readFileSync;', "no-restricted-imports"],
    ["src/client/x.ts", 'import { join } from "path";\nexport const a = join;', "no-restricted-imports"],
    ["src/client/x.ts", "export const a = process.env.X;", "no-restricted-globals"],
    // islands and sections also run in the browser
    [
      "src/components/islands/X/state.ts",
      'import { createHash } from "node:crypto";\nexport const a = createHash;',
      "no-restricted-imports",
    ],
    // shared code runs anywhere: neither Node nor the DOM
    ["src/shared/x.ts", 'import { readFileSync } from "node:fs";\nexport const a = readFileSync;', "no-restricted-imports"],
    ["src/shared/x.ts", "export const a = () => document.title;", "no-restricted-globals"],
    ["src/shared/x.ts", 'export const a = () => localStorage.getItem("k");', "no-restricted-globals"],
    ["src/shared/x.ts", "export const a = () => window.scrollY;", "no-restricted-globals"],
    // the runtimes and lib/ may not reach into the tools or the tests
    ["studio/x.ts", 'import { projectRoot } from "../scripts/build-inputs.ts";\nexport const a = projectRoot;', "no-restricted-imports"],
    [
      "studio/pages/x.ts",
      'import { available } from "../../scripts/lib/system-deps.ts";\nexport const a = available;',
      "no-restricted-imports",
    ],
    ["server/x.ts", 'import { outDir } from "../scripts/build-inputs.ts";\nexport const a = outDir;', "no-restricted-imports"],
    ["lib/records/x.ts", 'import { dist } from "../../tests/server/support.ts";\nexport const a = dist;', "no-restricted-imports"],
    // one way to make HTML: React components, never hono's templates beside them (decision 0051)
    ["studio/pages/x.ts", 'import { html } from "hono/html";\nexport const a = html;', "no-restricted-imports"],
    ["lib/records/x.ts", 'import { raw } from "hono/html";\nexport const a = raw;', "no-restricted-imports"],
    // the content configuration, which every build imports, without Astro's content runtime (decision 0063)
    [
      "src/content.config.ts",
      'import { defineCollection } from "astro:content";\nexport const a = defineCollection;',
      "no-restricted-imports",
    ],
  ])("rejects in %s: %s", async (filePath, code, rule) => {
    expect(await rulesFiring(filePath, code)).toContain(rule);
  });

  it.each([
    // the browser's code may use the DOM
    ["src/client/x.ts", "export const a = () => document.title;"],
    // shared code may use what JavaScript and every runtime have
    ["src/shared/x.ts", 'export const a = () => new URL("https://example.com").host + JSON.stringify([1]);'],
    // build-time code and tools may use Node
    ["src/build/x.ts", 'import { readFileSync } from "node:fs";\nexport const a = readFileSync;'],
    ["scripts/x.ts", 'import { readFileSync } from "node:fs";\nexport const a = readFileSync;'],
    // lib/ is for everyone
    ["studio/x.ts", 'import { projectRoot } from "../lib/root.ts";\nexport const a = projectRoot;'],
    ["server/x.ts", 'import { projectRoot } from "../lib/root.ts";\nexport const a = projectRoot;'],
    // pages read entries through astro:content
    ["src/pages/x.ts", 'import { getEntry } from "astro:content";\nexport const a = getEntry;'],
    ["src/content.config.ts", 'import { defineCollection } from "astro/content/config";\nexport const a = defineCollection;'],
  ])("accepts in %s: %s", async (filePath, code) => {
    expect(await rulesFiring(filePath, code)).toEqual([]);
  });
});

describe("ESLint keeps what production runs to what `npm ci --omit=dev` installs", () => {
  it.each([
    // a test framework, the tests' IdP, a test-only browser driver: devDependencies, absent on the firm's host
    ["studio/x.ts", 'import { describe } from "vitest";\nexport const a = describe;'],
    ["studio/auth/x.ts", 'import Provider from "oidc-provider";\nexport const a = Provider;'],
    ["lib/records/x.ts", 'import { chromium } from "@playwright/test";\nexport const a = chromium;'],
    ["server/x.ts", 'import puppeteer from "puppeteer-core";\nexport const a = puppeteer;'],
    ["integrations/publish/x.ts", 'import { HtmlValidate } from "html-validate";\nexport const a = HtmlValidate;'],
    // a dynamic import fails as surely at run time
    ["lib/x.ts", 'export const a = () => import("selfsigned");'],
  ])("refuses a devDependency in %s: %s", async (filePath, code) => {
    const [result] = await eslint.lintText(code, { filePath });
    const refusal = result!.messages.find((message) => message.ruleId === "import-x/no-extraneous-dependencies");
    expect(refusal?.message).toMatch(/should be listed in the project's dependencies, not devDependencies/);
  });

  it.each([
    // what production imports is in dependencies
    ["studio/x.ts", 'import { Hono } from "hono";\nexport const a = Hono;'],
    ["lib/records/x.ts", 'import { chromium } from "playwright-core";\nexport const a = chromium;'],
    ["lib/records/x.ts", 'import { WARCParser } from "warcio";\nexport const a = WARCParser;'],
    // a type-only import is gone at run time
    ["studio/x.ts", 'import type { Page } from "@playwright/test";\nexport type A = Page;'],
    // the demo's stand-ins, the tools and the tests may use devDependencies
    ["testing/demo/x.ts", 'import Provider from "oidc-provider";\nexport const a = Provider;'],
    ["scripts/x.ts", 'import puppeteer from "puppeteer-core";\nexport const a = puppeteer;'],
    ["tests/unit/x.test.ts", 'import { describe } from "vitest";\nexport const a = describe;'],
  ])("accepts in %s: %s", async (filePath, code) => {
    expect(await rulesFiring(filePath, code)).toEqual([]);
  });
});
