import { Info, X } from "lucide";
import { POPUP_PROGRESS_PERCENT } from "@/shared/constants";
import type { PopupCopy } from "@/content/schemas/landing";
import { SvgIcon } from "@/components/ui/SvgIcon";

/**
 * The Under Development popup as drawn, rendered at build time into the landing page's
 * <template data-popup>; src/client/head/popup.ts shows it at 4 s, hides it at 12 s, and answers its
 * close button, the overlay and Escape ([data-dismiss]). A modal dialog: decision 0025. It fades
 * in and out by CSS alone (global.css), never under reduced motion. The content studio draws it as it shows.
 */
export function UnderDevelopmentPopup({ copy }: { copy: PopupCopy }) {
  return (
    // Scrolls when the dialog is taller than the viewport (400 % zoom); the overlay stays put behind it.
    <div data-popup-phase="visible" className="fixed inset-0 z-[60] flex overflow-y-auto p-4">
      {/* ink-950 at 70 % as one colour: the token with an opacity modifier adds a color-mix() fallback to the first-paint CSS. */}
      <div aria-hidden="true" data-dismiss="" className="fixed inset-0 bg-[#0a1628b3]" />
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="popup-title"
        aria-describedby="popup-text"
        className="border-line bg-paper text-ink shadow-overlay relative m-auto w-full max-w-sm rounded-2xl border p-6"
      >
        <button
          type="button"
          data-dismiss=""
          aria-label={copy.closeLabel}
          className="text-muted hover:bg-surface hover:text-ink absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-full"
        >
          <SvgIcon node={X} className="size-5" />
        </button>
        <div className="text-accent-strong flex items-center gap-2 pr-10">
          {/* The highlights' info icon: already on the page, it costs the first round trip next to nothing. */}
          <SvgIcon node={Info} className="size-5 shrink-0" />
          <h2 id="popup-title" className="text-ink text-base font-semibold">
            {copy.heading}
          </h2>
        </div>
        <p id="popup-text" className="text-muted mt-2 pr-4 text-sm leading-relaxed">
          {copy.body}
        </p>
        <div
          role="progressbar"
          aria-label={copy.progressLabel}
          // aria-valuemin and aria-valuemax default to 0 and 100.
          aria-valuenow={POPUP_PROGRESS_PERCENT}
          className="bg-surface mt-4 h-2 overflow-hidden rounded-full"
        >
          <div className="bg-accent-strong h-full w-3/4 rounded-full" />
        </div>
        <p className="text-muted tnum mt-1.5 text-xs">{`${POPUP_PROGRESS_PERCENT}% ${copy.progressSuffix}`}</p>
      </div>
    </div>
  );
}
