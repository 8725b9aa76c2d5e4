import { IslandBoundary } from "./IslandBoundary";
import { Tip, TipProvider } from "./Tip";

export interface StatusDotProps {
  /** What the dot's tooltip says. */
  text: string;
}

/** The header's pulsing dot; its tooltip (Radix, on intent) says what the dot means. */
function Dot({ text }: StatusDotProps) {
  return (
    <TipProvider className="flex">
      <Tip id="status-dot" content={text} align="end">
        <button type="button" aria-label="Platform status" className="inline-flex size-11 items-center justify-center rounded-full">
          <span className="animate-pulse-dot bg-accent size-2.5 rounded-full" />
        </button>
      </Tip>
    </TipProvider>
  );
}

export function StatusDot(props: StatusDotProps) {
  return (
    <IslandBoundary name="StatusDot">
      <Dot {...props} />
    </IslandBoundary>
  );
}
