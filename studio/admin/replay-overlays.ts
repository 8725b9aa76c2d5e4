/**
 * The replay's one script of its own (decision 0047), first in every replayed page's <head>.
 *
 * Always: a replayed page's own scripts may not take the keyboard's focus from the studio's page (the
 * popup focuses its Close button at 4 s). A focus() call is kept only while the examiner is in the
 * replayed page (its document has focus), as the visitor was in theirs.
 *
 * With the overlays closed (`data-replay="overlays-closed"` on this script), as the capture's visitor
 * closed them: the cookie banner answered Reject All, the popup closed by its Close button. The consent
 * is the site's own stored state, read by its head script before the first paint; a sandboxed frame has
 * no storage, so a stand-in holds the choice for this page view, and the banner never shows, as for a
 * returning visitor who rejected. The popup keeps no state (every visit meets it): its own Close button
 * closes it as it appears, and <html data-replay-closed="popup"> says so.
 */
import { CONSENT_STORAGE_KEY, CONSENT_VALUES } from "../../src/shared/constants.ts";

const focus = HTMLElement.prototype.focus;
HTMLElement.prototype.focus = function (this: HTMLElement, options?: FocusOptions) {
  if (document.hasFocus()) focus.call(this, options);
};

if (document.currentScript?.dataset.replay === "overlays-closed") closeOverlays();

function closeOverlays() {
  const [, rejected] = CONSENT_VALUES;
  const kept = new Map<string, string>([[CONSENT_STORAGE_KEY, rejected]]);
  const storage: Storage = {
    get length() {
      return kept.size;
    },
    key: (index) => [...kept.keys()][index] ?? null,
    getItem: (key) => kept.get(String(key)) ?? null,
    setItem: (key, value) => void kept.set(String(key), String(value)),
    removeItem: (key) => void kept.delete(String(key)),
    clear: () => kept.clear(),
  };
  Object.defineProperty(window, "localStorage", { value: storage, configurable: true });

  // The popup is put at the start of <body>, at 4 s or once the page is parsed, whichever is later.
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes) {
          const close = node instanceof Element ? node.querySelector<HTMLElement>('[role="dialog"] [data-dismiss]') : null;
          if (!close) continue;
          close.click();
          document.documentElement.dataset.replayClosed = "popup";
        }
    }).observe(document.body, { childList: true });
  });
}
