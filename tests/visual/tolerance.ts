/**
 * How far a screenshot may differ from its baseline (Playwright's pixelmatch comparator).
 *
 * - `threshold`: the per-pixel colour distance (YIQ, 0 to 1) under which a pixel counts as equal.
 *   Playwright's default, 0.2, lets a border of line-dark (#26395A) on ink-900 (#111F36) vanish unseen
 *   (their distance is about 0.1), and 0.05 still misses secondary text going from #9FB0C8 to slate-400
 *   (#94A3B8, about 0.048). 0.04 catches both; a difference under it is about ten grey levels, which is
 *   rasteriser noise on a glyph's or a curve's edge, not a change anyone would see.
 * - `maxDiffPixels`: the odd pixel whose anti-aliasing flips (pixelmatch already skips pixels it
 *   recognises as anti-aliasing). A one-pixel line or border changes hundreds of pixels, the 10 px
 *   status dot in another green about 60; 24 stays well below both.
 *
 * tests/visual/tolerance.spec.ts proves it: each of those small deliberate changes fails, the unchanged
 * page passes.
 */
export const VISUAL_TOLERANCE = {
  threshold: 0.04,
  maxDiffPixels: 24,
  animations: "disabled",
  caret: "hide",
  scale: "css",
} as const;
