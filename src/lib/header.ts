import { HEADER_SCROLL_THRESHOLD_PX } from "./constants";

/** The header is "scrolled" strictly past the threshold: 50 is not, 51 is. */
export function isScrolled(scrollY: number): boolean {
  return scrollY > HEADER_SCROLL_THRESHOLD_PX;
}
