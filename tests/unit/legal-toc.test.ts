import { describe, expect, it } from "vitest";
import { currentSection } from "@/client/legal-toc";

describe("contents list: the section being read", () => {
  it.each([
    // above the first heading: nothing marked
    [[200, 900, 1600], 88, false, -1],
    // the first heading has just reached the reading line
    [[88, 800, 1500], 88, false, 0],
    // a link followed: its heading sits at its scroll margin (80), under the line
    [[-1400, -700, 80, 900], 88, false, 2],
    // between headings: the last one passed
    [[-1400, -50, 600], 88, false, 1],
    // at the end of the page: the last section, even if its heading is too low to reach the line
    [[-2000, -900, 400], 88, true, 2],
    // no sections
    [[], 88, false, -1],
  ])("headings at %j, line %d, at end %s: section %d", (headingTops, readingLine, atEnd, expected) => {
    expect(currentSection({ headingTops, readingLine, atEnd })).toBe(expected);
  });
});
