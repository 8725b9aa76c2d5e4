import {
  ACCEPT_ACTION,
  CLOSE_ACTION,
  CONSENT_EVENT,
  REJECT_ACTION,
  REOPEN_ACTION,
  parseConsent,
  sendsGlobalPrivacyControl,
  type Consent,
  type ConsentState,
} from "@/shared/consent";
import { CONSENT_HTML_ATTRIBUTE, CONSENT_STORAGE_KEY, CONSENT_VALUES } from "@/shared/constants";

/** The optional analytics script's URL, or "" (src/build/head-script.ts defines it from the site configuration). */
declare const __ANALYTICS_SCRIPT_URL__: string;

/**
 * The cookie banner's whole behaviour, from the inline <head> script, before first paint and without any
 * bundle: it marks <html data-consent> (CSS shows the server-rendered banner only when it is "unset"),
 * and answers clicks on [data-consent-action] from the moment the buttons are painted, even when every
 * /_astro script is blocked. The optional analytics script (the site configuration's, defined at build
 * time) loads after Accept All, never under GPC; with none configured, that code is not in the script at
 * all. It works on the page's own globals: it runs in <head>, nowhere else.
 */
export function consentController(): void {
  const doc = document;
  const root = doc.documentElement;
  const [accepted, rejected] = CONSENT_VALUES;
  // Storage refused (private mode, a locked-down machine): no choice, the banner shows.
  const read = (): Consent | null | undefined => {
    try {
      return parseConsent(localStorage.getItem(CONSENT_STORAGE_KEY));
    } catch {
      /* undefined */
    }
  };
  const set = (state: ConsentState) => {
    root.setAttribute(CONSENT_HTML_ATTRIBUTE, state);
    dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: state }));
  };
  let loadAnalytics = (_state: Consent | null | undefined) => {};
  if (__ANALYTICS_SCRIPT_URL__) {
    let added = false;
    loadAnalytics = (state) => {
      if (state !== accepted || sendsGlobalPrivacyControl(navigator) || added) return;
      added = true;
      // A script inserted by a script is async already.
      const script = doc.createElement("script");
      script.src = __ANALYTICS_SCRIPT_URL__;
      script.dataset.analytics = "";
      doc.head.append(script);
    };
    // After load, so no third-party request competes with the first paint.
    addEventListener("load", () => loadAnalytics(read()));
  }
  const banner = () => doc.querySelector<HTMLElement>("[data-consent-banner]");
  // Where focus goes back to once the banner is answered: the control that reopened it, or the element
  // focus came from when it entered the banner (WCAG 2.4.3).
  let returnTo: HTMLElement | null = null;

  set(read() || "unset");
  doc.addEventListener("DOMContentLoaded", () => {
    const el = banner();
    if (!el) return;
    // While the banner shows, focused elements and the page's end scroll clear of it (WCAG 2.4.11). Its
    // height is read after the browser's own layout (never forced) and set on <html> and <body> only, so
    // no other element's style is recomputed.
    new ResizeObserver(([entry]) => {
      const height = entry!.borderBoxSize[0]!.blockSize;
      root.style.scrollPaddingBottom = height ? height + 16 + "px" : "";
      doc.body.style.paddingBottom = height + "px";
    }).observe(el);
    el.addEventListener("focusin", ({ relatedTarget }) => {
      if (!el.contains(relatedTarget as Node | null)) returnTo ||= relatedTarget as HTMLElement | null;
    });
  });
  doc.addEventListener("click", (event) => {
    // The target may be the document itself, which has no closest().
    const control = (event.target as Element).closest?.<HTMLElement>("[data-consent-action]");
    const action = control?.dataset.consentAction;
    const choice = action === ACCEPT_ACTION ? accepted : action === REJECT_ACTION ? rejected : null;
    const answered = () => {
      if (returnTo?.isConnected && banner()?.contains(doc.activeElement)) returnTo.focus({ preventScroll: true });
      returnTo = null;
    };
    if (choice) {
      try {
        localStorage.setItem(CONSENT_STORAGE_KEY, choice);
      } catch {
        /* storage refused: the choice holds for this page view */
      }
      answered();
      set(choice);
      loadAnalytics(choice);
    } else if (action === CLOSE_ACTION) {
      answered();
      set("dismissed");
    } else if (action === REOPEN_ACTION) {
      returnTo = control!;
      set("unset");
      banner()?.focus();
    }
  });
}
