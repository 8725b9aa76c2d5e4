import { describe, expect, it } from "vitest";
import { POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "@/shared/constants";
import {
  popupPhaseAt,
  popupTransitionsFrom,
  schedulePopup,
  type Clock,
  type PopupPhase,
} from "@/components/islands/UnderDevelopmentPopup/schedule";

/** A clock whose time moves only when the test says so. */
function manualClock(start = 0) {
  let now = start;
  let timers: Array<{ id: number; at: number; fn: () => void }> = [];
  let next = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.push({ id: next, at: now + ms, fn });
      return next++;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advanceTo = (time: number) => {
    for (;;) {
      const due = timers.filter((t) => t.at <= time).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.fn();
    }
    now = time;
  };
  return { clock, advanceTo, pending: () => timers.length };
}

describe("popup schedule", () => {
  it.each([
    [0, "pending"],
    [3999, "pending"],
    [4000, "visible"],
    [11999, "visible"],
    [12000, "hiding"],
    [12499, "hiding"],
    [12500, "removed"],
  ] as const)("at %i ms it is %s", (elapsed, phase) => {
    expect(popupPhaseAt(elapsed)).toBe(phase);
  });

  it("uses the spec's constants", () => {
    expect([POPUP_SHOW_AT_MS, POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS]).toEqual([4000, 12000, 500]);
  });

  it("counts from navigation start, so a late start keeps the spec's times", () => {
    expect(popupTransitionsFrom(1500)).toEqual([
      { phase: "visible", inMs: 2500 },
      { phase: "hiding", inMs: 10500 },
      { phase: "removed", inMs: 11000 },
    ]);
    expect(popupTransitionsFrom(13000)).toEqual([]);
  });

  it("reports each phase at its time", () => {
    const { clock, advanceTo } = manualClock(800);
    const seen: Array<[number, PopupPhase]> = [];
    schedulePopup(clock, (phase) => seen.push([clock.now(), phase]));
    advanceTo(20000);
    expect(seen).toEqual([
      [800, "pending"],
      [4000, "visible"],
      [12000, "hiding"],
      [12500, "removed"],
    ]);
  });

  it("dismisses early, then removes 500 ms later, and never reports again", () => {
    const { clock, advanceTo } = manualClock(0);
    const seen: PopupPhase[] = [];
    const popup = schedulePopup(clock, (phase) => seen.push(phase));
    advanceTo(5000);
    popup.dismiss();
    advanceTo(5499);
    expect(seen).toEqual(["pending", "visible", "hiding"]);
    advanceTo(30000);
    expect(seen).toEqual(["pending", "visible", "hiding", "removed"]);
  });

  it("cancel() clears every timer (leaving the page)", () => {
    const { clock, advanceTo, pending } = manualClock(0);
    const seen: PopupPhase[] = [];
    const popup = schedulePopup(clock, (phase) => seen.push(phase));
    popup.cancel();
    expect(pending()).toBe(0);
    advanceTo(30000);
    expect(seen).toEqual(["pending"]);
  });
});
