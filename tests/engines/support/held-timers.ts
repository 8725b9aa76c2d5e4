/**
 * The page's timers held back until the test lets them go: for a real-time check whose premise is an
 * input begun before a timer of the page's own comes due (a press under way at the popup's 4 s). Run
 * before any script of the page (Firefox: a preload script; WebKit: the test front's first script), it
 * wraps setTimeout and clearTimeout: a timer set while they are held starts only when the test
 * releases them, with its whole delay, as if the page's clock had stood still until then; every timer
 * set after that runs as usual. performance.now() is never touched, so every time the test reads is
 * real, and the page's timers keep their real lengths from the release on.
 *
 * On a quiet machine the page arrives early, the press begins at once, and the hold lasts a moment.
 * On a busy one the page may arrive after 4 s: its 4 s timer then starts at the release, after the
 * press has begun, so the premise holds by construction, not by the machine's speed.
 */

/** The script, as a string: puppeteer's preload script and the WebKit front serve it as it is. */
export const HELD_TIMERS_SCRIPT = `(() => {
  const setTimeoutOfPage = window.setTimeout.bind(window);
  const clearTimeoutOfPage = window.clearTimeout.bind(window);
  // Ids of held timers, above any a browser gives out during a test, so that clearTimeout can tell them apart.
  let nextId = 1e9;
  const waiting = new Map();
  const started = new Map();
  const state = { held: true, installedAt: performance.now(), releasedAt: null };
  window.setTimeout = function (handler, delay, ...args) {
    if (!state.held) return setTimeoutOfPage(handler, delay, ...args);
    const id = nextId++;
    waiting.set(id, { handler, delay: Number(delay) || 0, args });
    return id;
  };
  window.clearTimeout = function (id) {
    if (waiting.delete(id)) return;
    if (started.has(id)) {
      clearTimeoutOfPage(started.get(id));
      started.delete(id);
      return;
    }
    clearTimeoutOfPage(id);
  };
  window.__heldTimers = {
    release() {
      state.held = false;
      state.releasedAt = performance.now();
      const delays = [...waiting.values()].map(({ delay }) => delay);
      for (const [id, { handler, delay, args }] of waiting) {
        const run = typeof handler === "function" ? (...a) => (started.delete(id), handler(...a)) : handler;
        started.set(id, setTimeoutOfPage(run, delay, ...args));
      }
      waiting.clear();
      return { releasedAt: state.releasedAt, delays };
    },
    /** The page's time as its timers count it: real time less the time they were held. */
    timerTime() {
      return state.releasedAt === null ? state.installedAt : performance.now() - (state.releasedAt - state.installedAt);
    },
  };
})();
`;

interface HeldTimers {
  release(): { releasedAt: number; delays: number[] };
  timerTime(): number;
}

// The two below run in the page (serialised by the driver): self-contained, no module-level names.

/** In the page: lets the held timers start; when (performance.now()), and the delay of each that had waited. */
export function releaseHeldTimers(): { releasedAt: number; delays: number[] } {
  return (window as unknown as { __heldTimers: HeldTimers }).__heldTimers.release();
}

/** In the page: resolves once the page's timers have counted `at` ms (their time stood still while held). */
export function afterTimerTime(at: number): Promise<void> {
  const timers = (window as unknown as { __heldTimers: HeldTimers }).__heldTimers;
  return new Promise<void>((done) => setTimeout(done, Math.max(0, at - timers.timerTime())));
}
