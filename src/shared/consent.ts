import { CONSENT_VALUES } from "./constants";

export type Consent = (typeof CONSENT_VALUES)[number];
/** What the <html data-consent> attribute says: a stored choice, "unset" (banner shows) or "dismissed" (closed for this view). */
export type ConsentState = Consent | "unset" | "dismissed";

/** Fired on window whenever <html data-consent> changes; `detail` is the new ConsentState. */
export const CONSENT_EVENT = "consentchange";

/** Anything but the two valid values counts as no choice. */
export function parseConsent(raw: unknown): Consent | null {
  return (CONSENT_VALUES as readonly unknown[]).includes(raw) ? (raw as Consent) : null;
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
export const ACCEPT_ACTION = "accept";
export const REJECT_ACTION = "reject";
export const CLOSE_ACTION = "close";
export const REOPEN_ACTION = "reopen";
export const CONSENT_ACTIONS = { accept: ACCEPT_ACTION, reject: REJECT_ACTION, close: CLOSE_ACTION, reopen: REOPEN_ACTION } as const;
