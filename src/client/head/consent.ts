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

/**
 * The cookie banner's whole behaviour, from the inline <head> script, before first paint and without any
 * bundle: it marks <html data-consent> (CSS shows the server-rendered banner only when it is "unset"),
 * and answers clicks on [data-consent-action] from the moment the buttons are painted, even when every
 * /_astro script is blocked. `analytics` is an optional script loaded after Accept All (never under GPC);
 * "" for none. It works on the page's own globals: it runs in <head>, nowhere else.
 */
export function consentController(analytics: string): void {
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
  let analyticsAdded = false;
  const loadAnalytics = (state: Consent | null | undefined) => {
    if (!analytics || state !== accepted || sendsGlobalPrivacyControl(navigator) || analyticsAdded) return;
    analyticsAdded = true;
    // A script inserted by a script is async already.
    const script = doc.createElement("script");
    script.src = analytics;
    script.dataset.analytics = "";
    doc.head.append(script);
  };
  const banner = () => doc.querySelector<HTMLElement>("[data-consent-banner]");
  // While the banner shows, focused elements and the page's end scroll clear of it (WCAG 2.4.11).
  const measure = () => {
    const height = banner()?.offsetHeight;
    if (height) root.style.setProperty("--consent-banner-h", height + "px");
  };

  set(read() || "unset");
  // After load, so no third-party request competes with the first paint.
  addEventListener("load", () => loadAnalytics(read()));
  addEventListener("resize", measure);
  doc.addEventListener("DOMContentLoaded", measure);
  doc.addEventListener("click", (event) => {
    // The target may be the document itself, which has no closest().
    const action = (event.target as Element).closest?.<HTMLElement>("[data-consent-action]")?.dataset.consentAction;
    const choice = action === ACCEPT_ACTION ? accepted : action === REJECT_ACTION ? rejected : null;
    if (choice) {
      try {
        localStorage.setItem(CONSENT_STORAGE_KEY, choice);
      } catch {
        /* storage refused: the choice holds for this page view */
      }
      set(choice);
      loadAnalytics(choice);
    } else if (action === CLOSE_ACTION) {
      set("dismissed");
    } else if (action === REOPEN_ACTION) {
      set("unset");
      measure();
      banner()?.focus();
    }
  });
}
