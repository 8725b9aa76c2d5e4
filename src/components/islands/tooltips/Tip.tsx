import {
  cloneElement,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from "react";
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "@/shared/constants";
import { cn } from "@/shared/cn";

type Radix = typeof import("@radix-ui/react-tooltip");

let pending: Promise<Radix> | null = null;
/** Radix tooltips (about 17 KB compressed), a chunk of their own so islands without tooltips never load it. */
export function loadRadix(): Promise<Radix> {
  pending ??= import("@radix-ui/react-tooltip");
  return pending;
}

/** Radix once loaded, and the element tooltips render into: inside the island, so inside its landmark. */
const RadixContext = createContext<{ radix: Radix; container: HTMLElement | null } | null>(null);

/**
 * Holds the tooltips of one island. Radix loads on intent: the island itself usually hydrates on intent
 * (client:when="intent"), and then Radix loads as it mounts. The intent is replayed once Radix is there: focus is given back to the
 * trigger that had it, and the trigger the pointer rests on (:hover) gets a pointermove, so the open
 * delay then runs as Radix defines it. Before hydration, or with scripts blocked, each trigger is a plain
 * button whose tooltip text is its description and shows by CSS on hover or focus (global.css).
 */
export function TipProvider({ children, className }: { children: ReactNode; className?: string }) {
  const [radix, setRadix] = useState<Radix | null>(null);
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const boxRef = useRef<HTMLDivElement | null>(null);
  // Mounting Radix replaces the trigger elements, so the intent is read just before and replayed after.
  const intent = useRef<{ focusId: string | null; hoverId: string | null }>({ focusId: null, hoverId: null });

  // Radix loads on intent: at once when the island woke because of it (client:when="intent": the pointer
  // is over it or focus inside it), otherwise on the first pointer or focus that comes.
  const [armed, setArmed] = useState(false);
  const arm = () => setArmed(true);
  useEffect(() => {
    const el = boxRef.current;
    if (el && (el.matches(":hover") || el.contains(document.activeElement))) setArmed(true);
  }, []);

  useEffect(() => {
    if (!armed) return;
    let live = true;
    loadRadix().then(
      (loaded) => {
        if (!live) return;
        const el = boxRef.current;
        const focused = document.activeElement;
        intent.current = {
          focusId: el && focused instanceof HTMLElement && el.contains(focused) ? focused.id || null : null,
          hoverId: el?.querySelector("[data-tip-trigger]:hover")?.id || null,
        };
        setRadix(loaded);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [armed]);

  const attach = useCallback((el: HTMLDivElement | null) => {
    boxRef.current = el;
    setBox(el);
  }, []);

  useLayoutEffect(() => {
    if (!radix) return;
    const { focusId, hoverId } = intent.current;
    if (focusId && document.activeElement === document.body) document.getElementById(focusId)?.focus();
    const hovered = hoverId && document.getElementById(hoverId);
    if (hovered) {
      const { left, top, width, height } = hovered.getBoundingClientRect();
      const at = { clientX: left + width / 2, clientY: top + height / 2 };
      hovered.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, pointerType: "mouse", ...at }));
    }
  }, [radix]);

  return (
    // A real box (not display: contents), so it can be measured and hold the tooltips' portal.
    <div ref={attach} className={className} onPointerOver={arm} onFocusCapture={arm}>
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

/**
 * Radix closes a tooltip on any scroll of the page, and a Tab that brings a trigger into view scrolls: the
 * tooltip its focus opened would close at once (WCAG 1.4.13, 2.1.1). Controlled here, a tooltip that focus
 * opened stays open while its trigger has focus; Escape, a press, a pointer outside and another tooltip
 * opening still close it, and so does the trigger losing focus.
 */
function useHeldOpen(triggerId: string) {
  const [open, setOpen] = useState(false);
  const state = useRef({ byFocus: false, closing: false });
  const allowClose = useCallback(() => {
    state.current.closing = true;
  }, []);
  useEffect(() => {
    if (!open) return;
    // Radix tells every open tooltip that another one opens (its "tooltip.open" event on document).
    document.addEventListener("tooltip.open", allowClose, { capture: true });
    return () => document.removeEventListener("tooltip.open", allowClose, { capture: true });
  }, [open, allowClose]);
  const onOpenChange = (next: boolean) => {
    const { byFocus, closing } = state.current;
    state.current.closing = false;
    if (!next && byFocus && !closing && document.activeElement?.id === triggerId) return;
    if (!next) state.current.byFocus = false;
    setOpen(next);
  };
  const onFocus = () => {
    state.current.byFocus = true;
  };
  return { open, onOpenChange, onFocus, allowClose };
}

/**
 * A tooltip on a focusable trigger: opens on hover after the open delay and on keyboard focus, closes
 * with Escape. `align="end"` keeps the no-script fallback inside the viewport at the right edge.
 */
export function Tip({
  id,
  content,
  align = "center",
  children,
}: {
  id: string;
  content: string;
  align?: "center" | "end";
  children: ReactElement<Record<string, unknown>>;
}) {
  const loaded = useContext(RadixContext);
  const held = useHeldOpen(id);
  const descriptionId = `${id}-description`;
  const base = { id, "data-tip-trigger": "", "aria-describedby": descriptionId };
  const description = (
    <span id={descriptionId} className={cn("tip-text", align === "end" && "tip-text-end")}>
      {content}
    </span>
  );
  if (!loaded) {
    return (
      // Not positioned: the no-script tooltip is placed from its static position (global.css).
      <span data-tip="" className="inline-flex">
        {cloneElement(children, base)}
        {description}
      </span>
    );
  }
  const { radix } = loaded;
  const trigger = cloneElement(children, {
    ...base,
    onFocus: held.onFocus,
    onPointerDown: held.allowClose,
    onClick: held.allowClose,
  });
  return (
    <span data-tip="" className="inline-flex">
      <radix.Root open={held.open} onOpenChange={held.onOpenChange}>
        <radix.Trigger asChild>{trigger}</radix.Trigger>
        <radix.Portal container={loaded.container}>
          <radix.Content
            side="bottom"
            sideOffset={8}
            collisionPadding={12}
            onEscapeKeyDown={held.allowClose}
            onPointerDownOutside={held.allowClose}
            className="bg-ink-950 text-on-dark shadow-raised z-50 max-w-64 rounded-lg px-3 py-2 text-sm leading-snug"
          >
            {content}
            <radix.Arrow className="fill-ink-950" />
          </radix.Content>
        </radix.Portal>
      </radix.Root>
      {description}
    </span>
  );
}
