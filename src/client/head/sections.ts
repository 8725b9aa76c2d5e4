/**
 * The landing page's sections below the first screen are laid out as the visitor nears them, not all
 * at once where the parser ends (`content-visibility: auto` under `<html data-lazy>`, global.css): on a
 * slow phone that layout was a task of 55–190 ms right after the first paint (docs/decisions/0010).
 * Only on a fresh visit with no #fragment: a reload, a visit from history or a link to a section is laid
 * out whole from the start, so the place the browser restores or jumps to is exact. Before any jump in
 * the page the mark goes and every section is laid out, so the jump ends where it will stay:
 * - a click on a `#` link (a tap, Enter, the skip link), before its default action;
 * - End, before the browser's scroll to the foot;
 * - a fragment typed or reached through history (`hashchange` comes after the browser's own scroll has
 *   set off, so the fragment's target is scrolled to again).
 * Print and a PDF are laid out whole (the rule is for the screen only). Find in page lays out what it
 * finds; `beforematch` is for `hidden="until-found"`, which this page does not use.
 */
export function lazySectionsController(): void {
  const root = document.documentElement;
  const visit = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (location.hash || visit?.type != "navigate") return;
  root.dataset.lazy = "";
  const layOut = () => {
    const was = "lazy" in root.dataset;
    delete root.dataset.lazy;
    return was;
  };
  addEventListener("click", (event) => (event.target as Element).closest?.('a[href^="#"]') && layOut(), true);
  addEventListener("keydown", (event) => event.key == "End" && layOut(), true);
  addEventListener("hashchange", () => layOut() && document.querySelector(":target")?.scrollIntoView());
}
