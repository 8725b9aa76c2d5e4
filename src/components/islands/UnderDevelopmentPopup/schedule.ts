import { POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "../../../shared/constants";

/** pending: not yet shown; visible: shown (fading in); hiding: fading out; removed: gone from the DOM. */
export type PopupPhase = "pending" | "visible" | "hiding" | "removed";

/** The phase at a time counted from navigation start (performance.now()), per the spec's timings. */
export function popupPhaseAt(elapsedMs: number): PopupPhase {
  if (elapsedMs < POPUP_SHOW_AT_MS) return "pending";
  if (elapsedMs < POPUP_HIDE_AT_MS) return "visible";
  if (elapsedMs < POPUP_HIDE_AT_MS + POPUP_REMOVE_AFTER_MS) return "hiding";
  return "removed";
}

/** The remaining transitions after elapsedMs, as delays from now; a late hydration skips what is past. */
export function popupTransitionsFrom(elapsedMs: number): Array<{ phase: PopupPhase; inMs: number }> {
  const all: Array<{ phase: PopupPhase; at: number }> = [
    { phase: "visible", at: POPUP_SHOW_AT_MS },
    { phase: "hiding", at: POPUP_HIDE_AT_MS },
    { phase: "removed", at: POPUP_HIDE_AT_MS + POPUP_REMOVE_AFTER_MS },
  ];
  return all.filter((t) => t.at > elapsedMs).map((t) => ({ phase: t.phase, inMs: t.at - elapsedMs }));
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/**
 * Runs the popup's schedule against a clock, reporting each phase; dismiss() hides early.
 * cancel() clears every timer (leaving the page) and never reports again.
 */
export function schedulePopup(clock: Clock, onPhase: (phase: PopupPhase) => void) {
  let timers: unknown[] = [];
  let done = false;
  const clear = () => {
    timers.forEach((id) => clock.clearTimeout(id));
    timers = [];
  };
  const report = (phase: PopupPhase) => {
    if (done) return;
    if (phase === "removed") done = true;
    onPhase(phase);
  };
  const start = clock.now();
  report(popupPhaseAt(start));
  for (const { phase, inMs } of popupTransitionsFrom(start)) {
    timers.push(clock.setTimeout(() => report(phase), inMs));
  }
  return {
    dismiss() {
      if (done) return;
      clear();
      report("hiding");
      timers.push(clock.setTimeout(() => report("removed"), POPUP_REMOVE_AFTER_MS));
    },
    cancel() {
      clear();
      done = true;
    },
  };
}
