import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BRAND_COLORS, brandMarkSvg } from "@/shared/brand";

/** The CSS tokens that carry the brand's colours (CSS cannot import the TypeScript definition). */
const TOKENS = {
  ink950: "--ink-950",
  ink900: "--ink-900",
  lineDark: "--line-dark",
  textOnDark: "--text-on-dark",
  mutedOnDark: "--muted-on-dark",
  accent: "--accent",
} as const;

describe("the brand is defined once", () => {
  const css = readFileSync("src/styles/tokens.css", "utf8");

  it.each(Object.entries(TOKENS))("the CSS token for %s is the brand's colour", (name, token) => {
    const value = new RegExp(`${token}:\\s*(#[0-9a-fA-F]{6});`).exec(css)?.[1];
    expect(value?.toUpperCase(), token).toBe(BRAND_COLORS[name as keyof typeof BRAND_COLORS]);
  });

  it("draws the mark as the favicon has always been drawn, and as icons at a size", () => {
    expect(brandMarkSvg()).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0A1628"/>' +
        '<path d="M8 22V10l8 7 8-7v12" fill="none" stroke="#34D399" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/></svg>',
    );
    expect(brandMarkSvg({ size: 180, fullBleed: true })).toMatch(
      /^<svg [^>]*width="180" height="180"[^>]*><rect [^>]*rx="0"[^>]*\/><g transform=/,
    );
  });
});
