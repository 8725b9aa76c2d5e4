import { CONSENT_HTML_ATTRIBUTE, CONSENT_VALUES } from "./constants";

export type Consent = (typeof CONSENT_VALUES)[number];
/** What the <html data-consent> attribute says: a stored choice, "unset" (banner shows) or "dismissed" (closed for this view). */
export type ConsentState = Consent | "unset" | "dismissed";

/** Fired on window whenever <html data-consent> changes; `detail` is the new ConsentState. */
export const CONSENT_EVENT = "consentchange";

/** Anything but the two valid values counts as no choice. */
export function parseConsent(raw: unknown): Consent | null {
  return (CONSENT_VALUES as readonly unknown[]).includes(raw) ? (raw as Consent) : null;
}

/** The choice as the page holds it: <html data-consent>, set before first paint and changed by the banner. */
export function consentOf(doc: Document): Consent | null {
  return parseConsent(doc.documentElement.getAttribute(CONSENT_HTML_ATTRIBUTE));
}

/** Global Privacy Control: the browser asks not to be tracked or have data shared. */
export function sendsGlobalPrivacyControl(nav: object | undefined): boolean {
  return (nav as { globalPrivacyControl?: unknown } | undefined)?.globalPrivacyControl === true;
}

/**
 * Third-party embeds (the contact form) load as the visitor reaches them only after Accept All and
 * without GPC; undecided, rejected or GPC, a click loads them for one page view.
 */
export function mayAutoLoadEmbeds(consent: Consent | null, gpc: boolean): boolean {
  return consent === "accepted" && !gpc;
}

/** What the banner's controls and the footer's "Cookie settings" say they do (data-consent-action). */
export const CONSENT_ACTIONS = { accept: "accept", reject: "reject", close: "close", reopen: "reopen" } as const;

export interface ConsentControllerOptions {
  key: string;
  attribute: string;
  accepted: Consent;
  rejected: Consent;
  event: string;
  /** Optional analytics script, loaded after Accept All (never under GPC); "" for none. */
  analytics: string;
}

/**
 * The cookie banner's whole behaviour. It runs as an inline script in <head>, before first paint and
 * without any bundle: it marks <html data-consent> (CSS shows the server-rendered banner only when it is
 * "unset"), and answers clicks on [data-consent-action] from the moment the buttons are painted, even
 * when every /_astro script is blocked. Serialized with Function.prototype.toString, so it must use
 * nothing from outside its own body (tests/unit/consent.test.ts runs the serialized text on its own).
 */
export function consentController(win: Window, o: ConsentControllerOptions): void {
  const doc = win.document;
  const root = doc.documentElement;
  const read = (): string | null => {
    try {
      const value = win.localStorage.getItem(o.key);
      return value === o.accepted || value === o.rejected ? value : null;
    } catch {
      return null;
    }
  };
  const set = (state: string) => {
    root.setAttribute(o.attribute, state);
    win.dispatchEvent(new CustomEvent(o.event, { detail: state }));
  };
  const analytics = (state: string | null) => {
    if (!o.analytics || state !== o.accepted || (win.navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true) return;
    if (doc.querySelector("script[data-analytics]")) return;
    const script = doc.createElement("script");
    script.src = o.analytics;
    script.async = true;
    script.setAttribute("data-analytics", "");
    doc.head.append(script);
  };
  const banner = () => doc.querySelector<HTMLElement>("[data-consent-banner]");
  // While the banner shows, focused elements and the page's end scroll clear of it (WCAG 2.4.11).
  const measure = () => {
    const el = banner();
    if (el && el.offsetHeight) root.style.setProperty("--consent-banner-h", el.offsetHeight + "px");
  };

  set(read() || "unset");
  // After load, so no third-party request competes with the first paint.
  win.addEventListener("load", () => analytics(read()));
  win.addEventListener("resize", measure);
  doc.addEventListener("DOMContentLoaded", measure);
  doc.addEventListener("click", (event) => {
    const control = event.target instanceof Element ? event.target.closest("[data-consent-action]") : null;
    const action = control && control.getAttribute("data-consent-action");
    if (action === "accept" || action === "reject") {
      const choice = action === "accept" ? o.accepted : o.rejected;
      try {
        win.localStorage.setItem(o.key, choice);
      } catch {
        /* storage refused: the choice holds for this page view */
      }
      set(choice);
      analytics(choice);
    } else if (action === "close") {
      set("dismissed");
    } else if (action === "reopen") {
      set("unset");
      measure();
      banner()?.focus();
    }
  });
}
