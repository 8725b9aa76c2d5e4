/**
 * Until a tooltip island hydrates (and for good when its bundle is blocked), a trigger's tooltip is drawn
 * by CSS while the trigger or the tooltip is hovered or the trigger focused (src/styles/global.css).
 * Escape hides the one showing (WCAG 1.4.13) until the pointer and focus have been somewhere else.
 * Once the island runs, Radix owns its tooltips and this has nothing to hide.
 */
export function tipsController(): void {
  const doc = document;
  const tips = (selector: string) => doc.querySelectorAll<HTMLElement>(`astro-island[ssr] [data-tip]${selector}`);
  doc.addEventListener("keydown", (event) => {
    if (event.key == "Escape") for (const tip of tips(":is(:hover,:focus-within)")) tip.dataset.tipDismissed = "";
  });
  const elsewhere = (event: Event) => {
    for (const tip of tips("[data-tip-dismissed]")) if (!tip.contains(event.target as Node)) delete tip.dataset.tipDismissed;
  };
  doc.addEventListener("pointerover", elsewhere);
  doc.addEventListener("focusin", elsewhere);
}
