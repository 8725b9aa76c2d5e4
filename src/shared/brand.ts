/**
 * The brand, defined once: its colours and its mark. The CSS carries the same colours as design tokens
 * (src/styles/tokens.css, which cannot import this file); tests/unit/brand.test.ts keeps the two equal.
 */
export const BRAND_COLORS = {
  ink950: "#0A1628",
  ink900: "#111F36",
  lineDark: "#26395A",
  textOnDark: "#E6EDF7",
  mutedOnDark: "#9FB0C8",
  accent: "#34D399",
} as const;

/** The mark: an "M" stroke in the accent colour, on a 32 × 32 tile. */
export const BRAND_MARK_PATH = "M8 22V10l8 7 8-7v12";
export const BRAND_MARK_STROKE_WIDTH = 2.5;

/**
 * The mark as an SVG document on an ink-950 tile: the favicon as it is (no size), or an icon's source at
 * `size` pixels. `fullBleed` fills the square and keeps the mark in the central safe zone, for icons the
 * OS rounds itself.
 */
export function brandMarkSvg({ size, fullBleed = false }: { size?: number; fullBleed?: boolean } = {}): string {
  const dimensions = size === undefined ? "" : ` width="${size}" height="${size}"`;
  const path =
    `<path d="${BRAND_MARK_PATH}" fill="none" stroke="${BRAND_COLORS.accent}" stroke-width="${BRAND_MARK_STROKE_WIDTH}"` +
    ` stroke-linecap="round" stroke-linejoin="round"/>`;
  const mark = fullBleed ? `<g transform="translate(4 4) scale(.75)">${path}</g>` : path;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg"${dimensions} viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="${fullBleed ? 0 : 8}" fill="${BRAND_COLORS.ink950}"/>${mark}</svg>`
  );
}
