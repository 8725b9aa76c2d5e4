import { cloneElement, createContext, useContext, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from "react";
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "@/lib/constants";

type Radix = typeof import("@radix-ui/react-tooltip");

let pending: Promise<Radix> | null = null;
/** Radix tooltips (about 17 KB compressed) load on the first sign of intent, not with the page. */
export function loadRadix(): Promise<Radix> {
  pending ??= import("@radix-ui/react-tooltip");
  return pending;
}

const RadixContext = createContext<Radix | null>(null);

/**
 * Holds the tooltips of one island. A pointer entering the island, or focus reaching it, loads Radix;
 * until then each trigger is a plain button whose tooltip text is its accessible description.
 * Mounting Radix remounts the triggers, so focus is given back and a pointer already resting on a
 * trigger is replayed, and the open delay then runs as usual.
 */
export function TipProvider({ children }: { children: ReactNode }) {
  const [radix, setRadix] = useState<Radix | null>(null);
  const focusedId = useRef<string | null>(null);
  const pointer = useRef<{ x: number; y: number } | null>(null);

  const arm = () => {
    if (!radix) loadRadix().then(setRadix, () => undefined);
  };

  useLayoutEffect(() => {
    if (!radix) return;
    if (focusedId.current && document.activeElement === document.body) {
      document.getElementById(focusedId.current)?.focus();
    }
    const at = pointer.current;
    const target = at && document.elementFromPoint(at.x, at.y)?.closest("[data-tip-trigger]");
    target?.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, pointerType: "mouse", clientX: at.x, clientY: at.y }));
  }, [radix]);

  return (
    // A div, not a span: it wraps block content (the highlights list) as well as buttons. A box, not
    // `display: contents`: Astro's client:visible observes the island's first element, and an element
    // without a box never intersects, so the highlights would never hydrate.
    <div
      className="grid"
      onPointerOver={arm}
      onPointerMove={(event) => {
        pointer.current = { x: event.clientX, y: event.clientY };
      }}
      onFocusCapture={(event) => {
        focusedId.current = event.target instanceof HTMLElement ? event.target.id || null : null;
        arm();
      }}
      onBlurCapture={() => {
        focusedId.current = null;
      }}
    >
      <RadixContext.Provider value={radix}>
        {radix ? (
          <radix.Provider delayDuration={TOOLTIP_OPEN_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
            {children}
          </radix.Provider>
        ) : (
          children
        )}
      </RadixContext.Provider>
    </div>
  );
}

/** A tooltip on a focusable trigger: opens on hover after the open delay and on keyboard focus, closes with Escape. */
export function Tip({ id, content, children }: { id: string; content: string; children: ReactElement<Record<string, unknown>> }) {
  const radix = useContext(RadixContext);
  const descriptionId = `${id}-description`;
  const trigger = cloneElement(children, { id, "data-tip-trigger": "", "aria-describedby": descriptionId });
  const description = (
    <span id={descriptionId} className="sr-only">
      {content}
    </span>
  );
  if (!radix) {
    return (
      <>
        {trigger}
        {description}
      </>
    );
  }
  return (
    <>
      <radix.Root>
        <radix.Trigger asChild>{trigger}</radix.Trigger>
        <radix.Portal>
          <radix.Content
            side="bottom"
            sideOffset={8}
            collisionPadding={12}
            aria-hidden="true"
            className="z-50 max-w-64 rounded-lg bg-ink-950 px-3 py-2 text-sm leading-snug text-on-dark shadow-lg"
          >
            {content}
            <radix.Arrow className="fill-ink-950" />
          </radix.Content>
        </radix.Portal>
      </radix.Root>
      {description}
    </>
  );
}
