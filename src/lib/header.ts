/**
 * The header's scrolled style: <header data-scrolled> is "true" strictly past the threshold (50 is not,
 * 51 is). An inline script from the first paint on, so it follows a restored scroll position and works
 * with every bundle blocked. Serialized with Function.prototype.toString: nothing from outside its body.
 */
export function headerController(win: Window, threshold: number): void {
  const update = () => {
    const header = win.document.querySelector("header[data-scrolled]");
    if (header) header.setAttribute("data-scrolled", String(win.scrollY > threshold));
  };
  win.addEventListener("scroll", update, { passive: true });
  win.addEventListener("pageshow", update);
  win.document.addEventListener("DOMContentLoaded", update);
}
