import { HEADER_SCROLL_THRESHOLD_PX } from "@/shared/constants";

/**
 * The header's scrolled style: <header data-scrolled> is "true" strictly past the threshold (50 is not,
 * 51 is). From the inline head script, from the first paint on, so it follows a restored scroll position
 * and works with every bundle blocked.
 */
export function headerController(): void {
  const update = () => {
    const header = document.querySelector<HTMLElement>("header[data-scrolled]");
    if (header) header.dataset.scrolled = String(scrollY > HEADER_SCROLL_THRESHOLD_PX);
  };
  // Scroll events cannot be cancelled, so the listener never holds the scroll up.
  addEventListener("scroll", update);
  addEventListener("pageshow", update);
  document.addEventListener("DOMContentLoaded", update);
}
