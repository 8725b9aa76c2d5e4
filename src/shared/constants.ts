/** The spec's numbers and keys (product spec, section 9). Code and tests import them from here. */

/** The header switches to its scrolled style when scrollY is strictly greater than this. */
export const HEADER_SCROLL_THRESHOLD_PX = 50;

/** The Under Development popup appears this long after navigation start. */
export const POPUP_SHOW_AT_MS = 4000;
/** ...starts fading out at this time after navigation start... */
export const POPUP_HIDE_AT_MS = 12000;
/** ...and is removed from the DOM this long after it started hiding. */
export const POPUP_REMOVE_AFTER_MS = 500;
/** A press under way when the popup is due ends first: the popup shows this long after its release (its click has come). */
export const POPUP_AFTER_PRESS_MS = 300;
/** The popup's progress bar is fixed at this percentage. */
export const POPUP_PROGRESS_PERCENT = 75;

/** localStorage key of the cookie consent choice. */
export const CONSENT_STORAGE_KEY = "cookieConsent";
/** The only valid stored values. */
export const CONSENT_VALUES = ["accepted", "rejected"] as const;

/** Shown on every legal page as "Last updated: …". */
export const LEGAL_LAST_UPDATED = "January 2025";
/** Year of the footer's copyright line. */
export const COPYRIGHT_YEAR = 2025;

/** With a status page configured, the header's dot asks it this long after navigation start (after first paint). */
export const STATUS_CHECK_AT_MS = 1000;

/** Radix tooltip timings. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** The contact form fallback shows when the frame has not loaded after this long. */
export const FORM_LOAD_TIMEOUT_MS = 10000;

/** Class on <body> while the popup overlay shows; attribute on <html> set before first paint. */
export const POPUP_ACTIVE_CLASS = "popup-active";
export const CONSENT_HTML_ATTRIBUTE = "data-consent";
