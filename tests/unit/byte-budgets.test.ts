import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkByteBudgets, importsOf } from "../../bench/bytes.ts";

const dist = join(process.cwd(), "dist");

describe("byte budgets over dist/ (brotli, quality 11)", () => {
  it("has a build to measure (npm test builds first)", () => {
    expect(existsSync(join(dist, "index.html"))).toBe(true);
  });

  const { pages, results } = existsSync(join(dist, "index.html")) ? checkByteBudgets(dist) : { pages: [], results: [] };

  it("measures all eight documents (the disclosures index with them) and the landing page's scripts", () => {
    expect(pages.map((p) => p.page).sort()).toEqual([
      "404.html",
      "business-continuity.html",
      "cookie-policy.html",
      "disclosures.html",
      "index.html",
      "privacy-policy.html",
      "risk-disclosures.html",
      "terms-of-service.html",
    ]);
    expect(pages.find((p) => p.page === "index.html")!.jsFiles.length).toBeGreaterThan(3);
  });

  it.each(results.map((r) => [r.name, r] as const))("%s", (_name, result) => {
    expect(result.value).toBeLessThanOrEqual(result.limit);
  });
});

describe("the chunk import parser", () => {
  it("finds static imports, re-exports and dynamic imports in minified code, with any quote", () => {
    const code = 'import{a as b}from"./react.X.js";import"./side.js";export{c}from\'./c.js\';const l=()=>import(`./lazy.js`);';
    expect(importsOf(code)).toEqual({ staticImports: ["./react.X.js", "./side.js", "./c.js"], dynamicImports: ["./lazy.js"] });
  });
});
