import type { ClientDirective } from "astro";

/**
 * `client:afterpaint`: hydrate once the first contentful paint has been presented and the browser is
 * idle. `client:idle` can fire before the first paint on a fast load, and then the islands' scripts are
 * fetched while the page is still painting, which slow-network audits count against the largest paint.
 * Nothing these islands do is needed before that: the banner and the header are already in the HTML,
 * and the popup counts its time from navigation start, not from hydration.
 */
const afterPaint: ClientDirective = (load) => {
  let started = false;
  const hydrate = async () => {
    if (started) return;
    started = true;
    const run = await load();
    await run();
  };
  const whenIdle = () =>
    "requestIdleCallback" in window ? requestIdleCallback(() => void hydrate(), { timeout: 2000 }) : setTimeout(() => void hydrate(), 50);
  if (performance.getEntriesByName("first-contentful-paint").length) return whenIdle();
  // The paint entry is reported after the frame is presented; a rAF callback runs before it is drawn.
  // Browsers without paint timing (and pages that paint nothing) fall back to the load event.
  try {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      // A short pause after the paint, so no script request starts in the same instant as the paint.
      setTimeout(whenIdle, 50);
    });
    observer.observe({ type: "paint", buffered: true });
  } catch {
    /* no paint timing: the fallback below decides */
  }
  const onLoad = () => setTimeout(whenIdle, 1000);
  if (document.readyState === "complete") onLoad();
  else addEventListener("load", onLoad, { once: true });
};

export default afterPaint;
