import { X } from "lucide";
import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { CONSENT_HTML_ATTRIBUTE } from "@/lib/constants";
import { mayLoadAnalytics, readConsent, sendsGlobalPrivacyControl, writeConsent, type Consent, type ConsentState } from "@/lib/consent";
import { loadAnalytics } from "@/lib/analytics";
import { SvgIcon } from "@/components/ui/SvgIcon";
import { IslandBoundary } from "./IslandBoundary";

export interface ConsentBannerProps {
  /** Optional analytics script; loaded only after Accept All and never under Global Privacy Control. */
  analyticsScriptUrl: string;
}

const storage = () => window.localStorage;

/** The banner's visibility lives on <html data-consent>, which the head script set before first paint. */
function setConsentState(state: ConsentState) {
  document.documentElement.setAttribute(CONSENT_HTML_ATTRIBUTE, state);
  window.dispatchEvent(new CustomEvent("consentchange", { detail: state }));
}

/** <html data-consent> is the banner's one source of truth: set before first paint, changed by the choices below. */
const subscribe = (onChange: () => void) => {
  window.addEventListener("consentchange", onChange);
  return () => window.removeEventListener("consentchange", onChange);
};
const readState = () => document.documentElement.getAttribute(CONSENT_HTML_ATTRIBUTE) ?? "unset";
// At build time the banner renders open; CSS shows it only when the head script found no choice.
const buildTimeState = () => "unset";

function Banner({ analyticsScriptUrl }: ConsentBannerProps) {
  const open = useSyncExternalStore(subscribe, readState, buildTimeState) === "unset";
  const ref = useRef<HTMLElement>(null);

  const maybeAnalytics = useCallback(
    (consent: Consent | null) => {
      if (analyticsScriptUrl && mayLoadAnalytics(consent, sendsGlobalPrivacyControl(navigator))) {
        loadAnalytics(document, analyticsScriptUrl);
      }
    },
    [analyticsScriptUrl],
  );

  useEffect(() => {
    maybeAnalytics(readConsent(storage));
    // The footer's "Cookie settings" button reopens the banner to change or withdraw the choice.
    const reopen = (event: MouseEvent) => {
      if (!(event.target instanceof Element) || !event.target.closest("[data-consent-reopen]")) return;
      setConsentState("unset");
      requestAnimationFrame(() => ref.current?.focus());
    };
    document.addEventListener("click", reopen);
    return () => document.removeEventListener("click", reopen);
  }, [maybeAnalytics]);

  // While the banner shows, focused elements scroll clear of it (WCAG 2.4.11).
  useEffect(() => {
    const root = document.documentElement;
    if (!open || !ref.current) {
      root.style.removeProperty("--consent-banner-h");
      return;
    }
    const banner = ref.current;
    const observer = new ResizeObserver(() => root.style.setProperty("--consent-banner-h", `${banner.offsetHeight}px`));
    observer.observe(banner);
    return () => observer.disconnect();
  }, [open]);

  const choose = (consent: Consent) => {
    writeConsent(storage, consent);
    setConsentState(consent);
    maybeAnalytics(consent);
  };

  const close = () => {
    setConsentState("dismissed");
  };

  if (!open) return null;
  return (
    // A named <section> is a region landmark without an ARIA role (html-validate: prefer-native-element).
    <section
      ref={ref}
      aria-label="Cookie consent"
      tabIndex={-1}
      data-consent-banner
      className="border-line bg-paper shadow-banner fixed inset-x-0 bottom-0 z-50 border-t outline-none"
    >
      <BannerBody onAccept={() => choose("accepted")} onReject={() => choose("rejected")} onClose={close} />
    </section>
  );
}

/** The banner's content, also rendered at build so the first paint has it (shown by CSS only when no choice is stored). */
export function BannerBody({ onAccept, onReject, onClose }: { onAccept?: () => void; onReject?: () => void; onClose?: () => void }) {
  return (
    <div className="mx-auto flex max-w-[75rem] flex-col gap-3 px-4 py-4 sm:px-6 md:flex-row md:items-center md:gap-6 lg:px-8">
      <p className="text-ink pr-10 text-sm leading-relaxed md:flex-1 md:pr-0">
        We use essential storage to remember your choice. With your consent we may also use performance cookies to improve the site. See our{" "}
        <a href="/cookie-policy" className="text-accent-strong font-medium underline underline-offset-2">
          Cookie Policy
        </a>
        .
      </p>
      <div className="grid shrink-0 grid-cols-2 gap-3 md:w-72">
        <button
          type="button"
          onClick={onReject}
          className="bg-accent-strong hover:bg-accent-strong-hover min-h-11 rounded-lg px-5 text-sm font-semibold text-white"
        >
          Reject All
        </button>
        <button
          type="button"
          onClick={onAccept}
          className="bg-accent-strong hover:bg-accent-strong-hover min-h-11 rounded-lg px-5 text-sm font-semibold text-white"
        >
          Accept All
        </button>
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label="Close"
        className="text-muted hover:bg-surface hover:text-ink absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-full md:static md:shrink-0"
      >
        <SvgIcon node={X} className="size-5" />
      </button>
    </div>
  );
}

export function ConsentBanner(props: ConsentBannerProps) {
  return (
    <IslandBoundary name="ConsentBanner">
      <Banner {...props} />
    </IslandBoundary>
  );
}
