import type { ClientDirective } from "astro";

/**
 * `client:afterpaint`: hydrate once the first frame has been painted and the browser is idle.
 * `client:idle` can fire before the first paint on a fast load, and then the island's scripts are
 * fetched while the page is still painting, which slow-network audits count against the largest
 * paint. Nothing these islands do is needed before the first frame: the banner and the header are
 * already in the HTML, and the popup counts its time from navigation start, not from hydration.
 */
const afterPaint: ClientDirective = (load) => {
  const hydrate = async () => {
    const run = await load();
    await run();
  };
  const whenIdle = () => ("requestIdleCallback" in window ? requestIdleCallback(() => void hydrate(), { timeout: 2000 }) : setTimeout(() => void hydrate(), 200));
  // A requestAnimationFrame callback runs just before a frame is painted; a task queued from it runs after.
  requestAnimationFrame(() => setTimeout(whenIdle, 0));
};

export default afterPaint;
