import { HEADER_SCROLL_THRESHOLD_PX } from "@/shared/constants";

/**
 * The header's scrolled style: <header data-scrolled> is "true" strictly past the threshold (50 is not,
 * 51 is). From the inline head script, from the first paint on, so it works with every bundle blocked. A
 * scroll position the browser restores (a reload, a #fragment) arrives as a scroll event; a page taken
 * from the back-forward cache as a persisted pageshow. Nothing reads scrollY before then: reading it
 * makes the browser lay out the whole page at once, inside the parser's task (20 to 40 ms on a slow
 * phone, right after the first paint).
 */
export function headerController(): void {
  const update = () => {
    const header = document.querySelector<HTMLElement>("header[data-scrolled]");
    if (header) header.dataset.scrolled = String(scrollY > HEADER_SCROLL_THRESHOLD_PX);
  };
  // Scroll events cannot be cancelled, so the listener never holds the scroll up.
  addEventListener("scroll", update);
  addEventListener("pageshow", (event) => event.persisted && update());
}
