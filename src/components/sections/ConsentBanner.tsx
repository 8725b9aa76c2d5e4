import { X } from "lucide";
import { CONSENT_ACTIONS } from "@/shared/consent";
import { SvgIcon } from "@/components/ui/SvgIcon";

const choiceClass = "bg-accent-strong hover:bg-accent-strong-hover min-h-11 rounded-lg px-5 text-sm font-semibold text-white";

/**
 * The cookie banner, rendered at build time into every page. CSS shows it only while <html data-consent>
 * is "unset"; its buttons are answered by the inline head script (src/client/head/consent.ts),
 * so they work from the moment they are painted, with or without any bundle. Accept All and Reject All
 * look the same and sit side by side. It is drawn only when whole: a half-parsed banner would grow
 * upwards as the rest of the page arrives. It comes first in <body> after the skip link, so its controls
 * come early in the tab order; answered, it gives focus back to where it came from (consent.ts).
 */
export function ConsentBanner() {
  return (
    // A named <section> is a region landmark without an ARIA role (html-validate: prefer-native-element).
    <section
      aria-label="Cookie consent"
      tabIndex={-1}
      data-consent-banner
      className="border-line bg-paper shadow-banner fixed inset-x-0 bottom-0 z-50 max-h-[50dvh] flex-col border-t outline-none"
    >
      {/* In a short viewport (a phone on its side, 400 % zoom) it takes at most half of it: the text scrolls, the buttons stay. */}
      <div className="short:gap-2 short:py-2 mx-auto flex min-h-0 w-full max-w-[75rem] flex-col gap-3 px-4 py-4 sm:px-6 md:flex-row md:items-center md:gap-6 lg:px-8">
        <p className="text-ink min-h-0 overflow-y-auto pr-10 text-sm leading-relaxed md:flex-1 md:pr-0">
          We use essential storage to remember your choice. With your consent we may also use performance cookies to improve the site, and
          the contact form loads from its provider as you reach it. See our{" "}
          <a href="/cookie-policy" className="text-accent-strong font-medium underline underline-offset-2">
            Cookie Policy
          </a>
          .
        </p>
        <div className="grid shrink-0 grid-cols-2 gap-3 md:w-72">
          <button type="button" data-consent-action={CONSENT_ACTIONS.reject} className={choiceClass}>
            Reject All
          </button>
          <button type="button" data-consent-action={CONSENT_ACTIONS.accept} className={choiceClass}>
            Accept All
          </button>
        </div>
        <button
          type="button"
          data-consent-action={CONSENT_ACTIONS.close}
          aria-label="Close"
          className="text-muted hover:bg-surface hover:text-ink absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-full md:static md:shrink-0"
        >
          <SvgIcon node={X} className="size-5" />
        </button>
      </div>
      {/* Its last element: CSS draws the banner only once the parser has reached it (src/styles/global.css). */}
      <span data-consent-banner-end className="hidden" />
    </section>
  );
}
