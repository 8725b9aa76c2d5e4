/**
 * Which section of a long page the reader is in, for the contents list (src/layouts/LegalLayout.astro).
 * Pure: the browser passes in where the headings are; src/scripts/legal-toc.ts wires it to the page.
 */

export interface ReadingPosition {
  /** Each section heading's top edge, relative to the top of the viewport (px), in document order. */
  headingTops: number[];
  /** How far below the viewport's top a heading counts as reached: the sticky header and a margin (px). */
  readingLine: number;
  /** The page is scrolled to its end (so the last sections, too short to reach the line, can be current). */
  atEnd: boolean;
}

/**
 * The index of the section being read: the last one whose heading has reached the reading line, or the
 * last section once the page is at its end; -1 above the first heading (nothing is marked).
 */
export function currentSection({ headingTops, readingLine, atEnd }: ReadingPosition): number {
  if (headingTops.length === 0) return -1;
  if (atEnd) return headingTops.length - 1;
  let current = -1;
  headingTops.forEach((top, i) => {
    if (top <= readingLine) current = i;
  });
  return current;
}
