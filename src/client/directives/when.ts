import type { ClientDirective } from "astro";

/**
 * `client:when`: hydrate an island when it has something to do, so no island costs the first paint or a
 * visitor's first taps (one directive, so the page carries one small loader instead of three):
 * - `client:when="intent"`: on the first pointer over it, focus inside it or touch. Until then its
 *   server-rendered HTML is the whole island (tooltip triggers are plain buttons whose tooltip text is
 *   their description and shows by CSS); the island replays the intent itself (Tip.tsx).
 * - `client:when="near"`: when it comes within a viewport's height of the screen.
 * - `client:when={ms}`: at that time after navigation start (performance.now()), at the next idle
 *   moment; for an island with nothing to do until then (the Under Development popup, shown at 4 s).
 */
const when: ClientDirective = (load, options, el) => {
  const hydrate = () => void load().then((run) => run());
  const value: unknown = options.value;
  if (typeof value === "number") {
    const idle = () => ("requestIdleCallback" in window ? requestIdleCallback(hydrate, { timeout: 300 }) : hydrate());
    setTimeout(idle, Math.max(0, value - performance.now()));
  } else if (value === "near") {
    // The island element is display: contents, so its children are what intersects.
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        hydrate();
      },
      { rootMargin: "100% 0px" },
    );
    for (const child of el.children) observer.observe(child);
  } else {
    const events = ["pointerover", "focusin", "touchstart"];
    const start = () => {
      for (const type of events) el.removeEventListener(type, start);
      hydrate();
    };
    for (const type of events) el.addEventListener(type, start, { passive: true });
  }
};

export default when;
