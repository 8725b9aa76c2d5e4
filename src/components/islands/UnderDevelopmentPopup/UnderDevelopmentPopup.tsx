import { Construction, X } from "lucide";
import { useEffect, useRef, useState } from "react";
import { POPUP_ACTIVE_CLASS, POPUP_PROGRESS_PERCENT } from "@/shared/constants";
import { schedulePopup, type PopupPhase } from "./schedule";
import { cn } from "@/shared/cn";
import type { PopupCopy } from "@/content/schemas/landing";
import { SvgIcon } from "@/components/ui/SvgIcon";
import { IslandBoundary } from "../IslandBoundary";

const browserClock = {
  now: () => performance.now(),
  setTimeout: (fn: () => void, ms: number) => window.setTimeout(fn, ms),
  clearTimeout: (id: unknown) => window.clearTimeout(id as number),
};

/**
 * Timed notice: shown 4 s after navigation start (performance.now(), so late hydration does not delay it),
 * fades out at 12 s and leaves the DOM 500 ms later. Non-modal: it never moves focus; Escape, the close
 * button and a click on the overlay dismiss it early. Leaving the page cancels the timers for good, so a
 * page restored from the back-forward cache shows no stale popup.
 */
function Popup({ copy }: { copy: PopupCopy }) {
  const [phase, setPhase] = useState<PopupPhase>("pending");
  // "entered" flips one frame after mounting, so the opacity transition runs (a fade, not a pop).
  const [entered, setEntered] = useState(false);
  const schedule = useRef<ReturnType<typeof schedulePopup> | null>(null);

  useEffect(() => {
    const controller = schedulePopup(browserClock, setPhase);
    schedule.current = controller;
    const leave = () => {
      controller.cancel();
      setPhase("removed");
    };
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      controller.cancel();
    };
  }, []);

  const shown = phase === "visible" || phase === "hiding";

  useEffect(() => {
    if (!shown) return;
    document.body.classList.add(POPUP_ACTIVE_CLASS);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") schedule.current?.dismiss();
    };
    document.addEventListener("keydown", onKey);
    const frame = requestAnimationFrame(() => setEntered(true));
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("keydown", onKey);
      document.body.classList.remove(POPUP_ACTIVE_CLASS);
    };
  }, [shown]);

  if (!shown) return null;
  return <PopupView copy={copy} phase={phase} visible={phase === "visible" && entered} onDismiss={() => schedule.current?.dismiss()} />;
}

/** The popup as drawn (also the content studio's preview of it): `visible` is the faded-in state. */
export function PopupView({
  copy,
  phase,
  visible,
  onDismiss,
}: {
  copy: PopupCopy;
  phase: PopupPhase;
  visible: boolean;
  onDismiss: () => void;
}) {
  return (
    <div data-popup-phase={phase} className="fixed inset-0 z-[60] flex items-center justify-center p-4">
      <div
        aria-hidden="true"
        onClick={onDismiss}
        className={cn("bg-ink-950/70 absolute inset-0 transition-opacity duration-300", visible ? "opacity-100" : "opacity-0")}
      />
      <div
        role="dialog"
        aria-modal="false"
        aria-labelledby="popup-title"
        aria-describedby="popup-text"
        className={cn(
          "border-line bg-paper text-ink shadow-overlay relative w-full max-w-sm rounded-2xl border p-6 transition-[opacity,transform] duration-300",
          visible ? "opacity-100" : "lift opacity-0",
        )}
      >
        <button
          type="button"
          onClick={onDismiss}
          aria-label={copy.closeLabel}
          className="text-muted hover:bg-surface hover:text-ink absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-full"
        >
          <SvgIcon node={X} className="size-5" />
        </button>
        <div className="text-accent-strong flex items-center gap-2">
          <SvgIcon node={Construction} className="size-5" />
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
          aria-valuemin={0}
          aria-valuemax={100}
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

export function UnderDevelopmentPopup({ copy }: { copy: PopupCopy }) {
  return (
    <IslandBoundary name="UnderDevelopmentPopup">
      <Popup copy={copy} />
    </IslandBoundary>
  );
}
