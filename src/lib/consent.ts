import { CONSENT_HTML_ATTRIBUTE, CONSENT_STORAGE_KEY, CONSENT_VALUES } from "./constants";

export type Consent = (typeof CONSENT_VALUES)[number];
/** What the <html data-consent> attribute says: a stored choice, "unset" (banner shows) or "dismissed" (closed for this view). */
export type ConsentState = Consent | "unset" | "dismissed";

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Anything but the two valid values counts as no choice. */
export function parseConsent(raw: unknown): Consent | null {
  return (CONSENT_VALUES as readonly unknown[]).includes(raw) ? (raw as Consent) : null;
}

/** Reads the stored choice; a storage that is missing or throws (disabled, privacy mode) reads as no choice. */
export function readConsent(getStorage: () => StorageLike | null | undefined): Consent | null {
  try {
    return parseConsent(getStorage()?.getItem(CONSENT_STORAGE_KEY));
  } catch {
    return null;
  }
}

/** Stores the choice; returns false when storage refused (the choice then holds for this page view only). */
export function writeConsent(getStorage: () => StorageLike | null | undefined, value: Consent): boolean {
  try {
    const storage = getStorage();
    if (!storage) return false;
    storage.setItem(CONSENT_STORAGE_KEY, value);
    return true;
  } catch {
    return false;
  }
}

/** Global Privacy Control: the browser asks not to be tracked or have data shared. */
export function sendsGlobalPrivacyControl(nav: object | undefined): boolean {
  return (nav as { globalPrivacyControl?: unknown } | undefined)?.globalPrivacyControl === true;
}

/** Non-essential third-party code (analytics) may load only after Accept All, and never under GPC. */
export function mayLoadAnalytics(consent: Consent | null, gpc: boolean): boolean {
  return consent === "accepted" && !gpc;
}

/** Third-party embeds load without a click unless the visitor rejected or the browser sends GPC. */
export function mayAutoLoadEmbeds(consent: Consent | null, gpc: boolean): boolean {
  return consent !== "rejected" && !gpc;
}

/**
 * The inline <head> script: marks <html data-consent> before first paint, so a returning visitor never
 * sees the banner flash and a visitor without JavaScript never sees a banner they cannot close.
 */
export const consentBootScript =
  `(function(d){var v=null;try{v=localStorage.getItem(${JSON.stringify(CONSENT_STORAGE_KEY)})}catch(e){}` +
  `d.documentElement.setAttribute(${JSON.stringify(CONSENT_HTML_ATTRIBUTE)},` +
  `v===${JSON.stringify(CONSENT_VALUES[0])}||v===${JSON.stringify(CONSENT_VALUES[1])}?v:"unset")})(document)`;
