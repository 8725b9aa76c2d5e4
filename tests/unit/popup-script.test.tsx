import { afterEach, describe, expect, it } from "vitest";
import { Window } from "happy-dom";
import { renderToStaticMarkup } from "react-dom/server";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { bundleHeadScript } from "@/build/head-script";
import { UnderDevelopmentPopup } from "@/components/sections/UnderDevelopmentPopup";
import type { PopupCopy } from "@/content/schemas/landing";
import { POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "@/shared/constants";

const copy = parse(readFileSync(new URL("../../src/content/landing/popup.yaml", import.meta.url), "utf8")) as PopupCopy;
const landingScript = bundleHeadScript("", "landing").code;

/**
 * The landing page's head script in a fresh window whose clock moves only when the test says: its
 * setTimeout and performance.now are the test's. `startAt` is when the script first runs.
 */
function landing({ startAt = 100 }: { startAt?: number } = {}) {
  const win = new Window({ url: "https://www.example.com/" });
  const doc = win.document;
  let now = startAt;
  let timers: Array<{ id: number; at: number; run: () => void }> = [];
  let next = 1;
  Object.defineProperty(win, "performance", { configurable: true, value: { now: () => now } });
  Object.assign(win, {
    setTimeout: (run: () => void, ms = 0) => {
      timers.push({ id: next, at: now + Math.max(0, ms), run });
      return next++;
    },
    clearTimeout: (id: number) => (timers = timers.filter((t) => t.id !== id)),
  });
  const advanceTo = (time: number) => {
    for (;;) {
      const due = timers.filter((t) => t.at <= time).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.run();
    }
    now = time;
  };
  doc.body.innerHTML = `
    <a href="#main">Skip to content</a>
    <header><a href="#features">Features</a></header>
    <main id="main"><a href="#contact">Contact</a></main>
    <template data-popup>${renderToStaticMarkup(<UnderDevelopmentPopup copy={copy} />)}</template>`;
  win.eval(landingScript);
  // happy-dom's element types are not the DOM library's.
  const popup = () => doc.querySelector("[data-popup-phase]") as unknown as HTMLElement | null;
  const element = (selector: string) => doc.querySelector(selector) as unknown as HTMLElement;
  const hidden = () => [...doc.querySelectorAll("body > [aria-hidden=true]")].map((el) => el.tagName.toLowerCase());
  const inert = () => [...doc.querySelectorAll("[inert]")].map((el) => el.tagName.toLowerCase());
  return { win, doc, advanceTo, popup, element, hidden, inert, pending: () => timers.length };
}

let windows: Window[] = [];
const open = (...args: Parameters<typeof landing>) => {
  const page = landing(...args);
  windows.push(page.win);
  return page;
};
afterEach(async () => {
  for (const win of windows) await win.happyDOM.close();
  windows = [];
});

describe("the landing page's head script: the Under Development popup", () => {
  it("uses the spec's times", () => {
    expect([POPUP_SHOW_AT_MS, POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS]).toEqual([4000, 12000, 500]);
  });

  it("is put at the start of <body> at 4 s, fades at 12 s and leaves at 12.5 s, counting from navigation start", () => {
    const p = open({ startAt: 1500 });
    p.advanceTo(3999);
    expect(p.popup()).toBeNull();
    p.advanceTo(4000);
    expect(p.doc.body.firstElementChild).toBe(p.popup());
    expect(p.popup()?.dataset.popupPhase).toBe("visible");
    expect(p.doc.body.classList.contains("popup-active")).toBe(true);
    p.advanceTo(11999);
    expect(p.popup()?.dataset.popupPhase).toBe("visible");
    p.advanceTo(12000);
    expect(p.popup()?.dataset.popupPhase).toBe("hiding");
    p.advanceTo(12499);
    expect(p.popup()).not.toBeNull();
    p.advanceTo(12500);
    expect(p.popup()).toBeNull();
    expect(p.doc.body.classList.contains("popup-active")).toBe(false);
    expect(p.pending()).toBe(0);
  });

  it("hides the rest of the page from assistive technology while it shows; fading out, the popup itself is inert", () => {
    const p = open();
    p.advanceTo(4000);
    expect(p.hidden()).toEqual(["a", "header", "main", "template"]);
    expect(p.inert()).toEqual([]);
    p.advanceTo(12000);
    expect(p.hidden()).toEqual([]);
    expect(p.inert()).toEqual(["div"]);
  });

  it("keeps Tab and Shift+Tab on its Close button while it shows", () => {
    const p = open();
    p.advanceTo(4000);
    for (const shiftKey of [false, true]) {
      // Recognised by key code: in WebKitGTK a Shift+Tab does not arrive as key "Tab".
      const tab = new p.win.KeyboardEvent("keydown", { key: shiftKey ? "Unidentified" : "Tab", keyCode: 9, shiftKey, cancelable: true });
      p.doc.dispatchEvent(tab);
      expect(tab.defaultPrevented).toBe(true);
      expect(p.doc.activeElement?.getAttribute("aria-label")).toBe(copy.closeLabel);
    }
  });

  it("moves focus to its Close button and gives it back to the element that had it", () => {
    const p = open();
    const link = p.element("header a");
    link.focus();
    p.advanceTo(4000);
    expect(p.doc.activeElement?.getAttribute("aria-label")).toBe(copy.closeLabel);
    p.doc.dispatchEvent(new p.win.KeyboardEvent("keydown", { key: "Escape" }));
    expect(p.popup()?.dataset.popupPhase).toBe("hiding");
    expect(p.doc.activeElement as unknown).toBe(link);
  });

  it.each([
    ["its close button", "button"],
    ["the overlay", "[aria-hidden=true]"],
  ])("closes on a click on %s, and not on one inside the dialog", (_, selector) => {
    const p = open();
    p.advanceTo(4000);
    p.popup()!.querySelector<HTMLElement>("p")!.click();
    expect(p.popup()?.dataset.popupPhase).toBe("visible");
    p.popup()!.querySelector<HTMLElement>(selector)!.click();
    expect(p.popup()?.dataset.popupPhase).toBe("hiding");
    p.advanceTo(4000 + POPUP_REMOVE_AFTER_MS);
    expect(p.popup()).toBeNull();
    // Its own timers went with it.
    expect(p.pending()).toBe(0);
  });

  it("shows at once when the script first runs between 4 s and 12 s, and never after 12 s", () => {
    const late = open({ startAt: 5000 });
    late.advanceTo(5000);
    expect(late.popup()?.dataset.popupPhase).toBe("visible");
    const tooLate = open({ startAt: 12_001 });
    tooLate.advanceTo(30_000);
    expect(tooLate.popup()).toBeNull();
    expect(tooLate.pending()).toBe(0);
  });

  it("leaving the page cancels it for good and leaves nothing inert", () => {
    const p = open();
    p.advanceTo(5000);
    p.win.dispatchEvent(new p.win.Event("pagehide"));
    expect(p.popup()).toBeNull();
    expect(p.hidden()).toEqual([]);
    expect(p.pending()).toBe(0);
  });
});
