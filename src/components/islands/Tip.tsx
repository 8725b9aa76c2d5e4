import { cloneElement, createContext, useContext, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from "react";
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "@/lib/constants";

type Radix = typeof import("@radix-ui/react-tooltip");

let pending: Promise<Radix> | null = null;
/** Radix tooltips (about 17 KB compressed) load on the first sign of intent, not with the page. */
export function loadRadix(): Promise<Radix> {
  pending ??= import("@radix-ui/react-tooltip");
  return pending;
}

/** Radix once loaded, and the element tooltips render into: inside the island, so inside its landmark. */
const RadixContext = createContext<{ radix: Radix; container: HTMLElement | null } | null>(null);

/**
 * Holds the tooltips of one island. A pointer entering the island, or focus reaching it, loads Radix;
 * until then each trigger is a plain button whose tooltip text is its accessible description.
 * Mounting Radix remounts the triggers, so focus is given back and a pointer already resting on a
 * trigger is replayed, and the open delay then runs as usual.
 */
export function TipProvider({ children, className }: { children: ReactNode; className?: string }) {
  const [radix, setRadix] = useState<Radix | null>(null);
  const focusedId = useRef<string | null>(null);
  const pointer = useRef<{ x: number; y: number } | null>(null);
  const [box, setBox] = useState<HTMLDivElement | null>(null);

  const arm = () => {
    if (!radix) loadRadix().then(setRadix, () => undefined);
  };

  useLayoutEffect(() => {
    if (!radix) return;
    if (focusedId.current && document.activeElement === document.body) {
      document.getElementById(focusedId.current)?.focus();
    }
    const at = pointer.current;
    if (!at) return;
    const target = document.elementFromPoint(at.x, at.y)?.closest("[data-tip-trigger]");
    target?.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, pointerType: "mouse", clientX: at.x, clientY: at.y }));
  }, [radix]);

  return (
    // A real box (not display: contents), so a client:visible island around it can see it intersect.
    <div
      ref={setBox}
      className={className}
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
      <RadixContext.Provider value={radix && { radix, container: box }}>
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
  const loaded = useContext(RadixContext);
  const descriptionId = `${id}-description`;
  const trigger = cloneElement(children, { id, "data-tip-trigger": "", "aria-describedby": descriptionId });
  const description = (
    <span id={descriptionId} className="sr-only">
      {content}
    </span>
  );
  if (!loaded) {
    return (
      <>
        {trigger}
        {description}
      </>
    );
  }
  const { radix } = loaded;
  return (
    <>
      <radix.Root>
        <radix.Trigger asChild>{trigger}</radix.Trigger>
        <radix.Portal container={loaded.container}>
          <radix.Content
            side="bottom"
            sideOffset={8}
            collisionPadding={12}
            className="bg-ink-950 text-on-dark shadow-raised z-50 max-w-64 rounded-lg px-3 py-2 text-sm leading-snug"
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
