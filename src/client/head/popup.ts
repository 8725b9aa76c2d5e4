import { POPUP_ACTIVE_CLASS, POPUP_AFTER_PRESS_MS, POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "@/shared/constants";

/**
 * The Under Development popup, from the landing page's inline head script: no bundle, no framework. Its
 * markup is rendered at build time into <template data-popup> (UnderDevelopmentPopup.tsx). At 4 s after
 * navigation start it is put at the start of <body>, fades in by CSS (@starting-style) over a dark
 * overlay, and <body> gets `popup-active`. A modal dialog (docs/decisions/0025): focus moves to its Close
 * button, which announces the dialog once, and stays there (Tab and Shift+Tab keep it); the overlay takes
 * every pointer, and the rest of the page is hidden from assistive technology (aria-hidden: `inert` on the
 * page's parts restyled the whole page, a 50-70 ms task on a slow phone, twice). Close, Escape, a click
 * on the overlay or 12 s start its fade-out: it is inert from then on, focus goes back exactly where it
 * was (with nothing focused before, the next Tab starts at the top of the page), and it leaves the DOM
 * 500 ms later. A page that first runs this after 12 s never shows it. Leaving the page cancels it for
 * good (a page restored from the back-forward cache shows no stale popup). A press under way at 4 s ends
 * first, its click included (the popup comes 300 ms after the release): shown between the two, the
 * overlay would take the release, and a tap begun on the banner's Accept All would land on neither.
 */
export function popupController(): void {
  const doc = document;
  const body = () => doc.body;
  let box: HTMLElement | undefined;
  let before: HTMLElement;
  let timers: ReturnType<typeof setTimeout>[] = [];
  const later = (ms: number, run: () => void) => timers.push(setTimeout(run, ms));
  // The page behind, for assistive technology: hidden while the dialog shows (no element of it starts hidden).
  const page = (hidden: boolean) => {
    for (const el of body().children) {
      if (el == box) continue;
      if (hidden) el.setAttribute("aria-hidden", "true");
      else el.removeAttribute("aria-hidden");
    }
  };
  // The popup's showing, when it waits for the press under way to end.
  let pressing = false;
  let due: (() => void) | undefined;
  const stop = () => {
    timers.forEach(clearTimeout);
    timers = [];
    due = undefined;
  };
  const remove = () => {
    box?.remove();
    box = undefined;
    body().classList.remove(POPUP_ACTIVE_CLASS);
  };
  const hide = () => {
    stop();
    if (!box || box.inert) return;
    box.dataset.popupPhase = "hiding";
    box.inert = true;
    page(false);
    later(POPUP_REMOVE_AFTER_MS, remove);
    if (before != body() && before.isConnected) before.focus({ preventScroll: true });
    else (doc.activeElement as HTMLElement).blur();
  };
  const show = () => {
    box = doc.querySelector<HTMLTemplateElement>("template[data-popup]")!.content.firstElementChild!.cloneNode(true) as HTMLElement;
    before = doc.activeElement as HTMLElement;
    page(true);
    box.addEventListener("click", (event) => (event.target as Element).closest("[data-dismiss]") && hide());
    body().prepend(box);
    body().classList.add(POPUP_ACTIVE_CLASS);
    box.querySelector("button")!.focus();
  };
  addEventListener("pointerdown", () => (pressing = true), true);
  // A right-click's or a long press's menu takes the release: its opening ends the press.
  for (const type of ["pointerup", "pointercancel", "contextmenu"])
    addEventListener(
      type,
      () => {
        pressing = false;
        // Its click comes with the release (a touch's in a task of its own, just after): the popup POPUP_AFTER_PRESS_MS later.
        if (due)
          later(POPUP_AFTER_PRESS_MS, () => {
            if (pressing || !due) return;
            due();
            due = undefined;
          });
      },
      true,
    );
  const now = performance.now();
  if (now < POPUP_HIDE_AT_MS) {
    // A page still arriving at 4 s (a very slow link) shows it once its markup is there.
    const showOnceParsed = () => (doc.readyState == "loading" ? doc.addEventListener("DOMContentLoaded", show) : show());
    later(POPUP_SHOW_AT_MS - now, () => (pressing ? (due = showOnceParsed) : showOnceParsed()));
    later(POPUP_HIDE_AT_MS - now, hide);
  }
  doc.addEventListener("keydown", (event) => {
    if (!box || box.inert) return;
    if (event.key == "Escape") hide();
    // Tab and Shift+Tab stay on its one control (the page behind takes no focus while it shows). By key
    // code: in WebKitGTK a Shift+Tab does not arrive as key "Tab" (its GTK key is ISO_Left_Tab).
    if (event.keyCode == 9) {
      event.preventDefault();
      box.querySelector("button")!.focus();
    }
  });
  addEventListener("pagehide", () => {
    stop();
    page(false);
    remove();
  });
}
