import { useEffect, useState } from "react";
import { cn } from "@/shared/cn";
import type { StatusCopy } from "@/content/schemas/landing";
import { describeStatus, fetchStatus, type StatusReading } from "./status";
import { IslandBoundary } from "../IslandBoundary";
import { Tip, TipProvider } from "./Tip";

/** The status page (site configuration, PUBLIC_STATUS_URL), or none; and the words for that case (status.yaml). */
export type StatusDotProps =
  | { statusUrl: ""; copy: Pick<StatusCopy, "unconfigured" | "buttonLabel"> }
  | { statusUrl: string; copy: Pick<StatusCopy, "checking" | "reported" | "unavailable" | "linkLabel"> };

/** The dot's colour for each tone; only "operational" keeps the spec's pulsing green. */
const toneClass = {
  neutral: "animate-pulse-dot bg-accent",
  none: "animate-pulse-dot bg-accent",
  minor: "bg-amber-400",
  major: "bg-orange-500",
  critical: "bg-red-500",
  maintenance: "bg-sky-400",
  unknown: "bg-muted-on-dark",
} as const;

const dotTarget = "inline-flex size-11 items-center justify-center rounded-full";

/**
 * The header's status dot (src/components/islands/tooltips/status.ts decides what it may say). Without a status page it is the
 * spec's pulsing dot whose tooltip makes no statement about health; with one, it links to the page and
 * shows the page's current indicator and description, or says the status is unavailable.
 */
function Dot(props: StatusDotProps) {
  const { statusUrl, copy } = props;
  const [reading, setReading] = useState<StatusReading>(statusUrl ? { kind: "checking" } : { kind: "unconfigured" });

  useEffect(() => {
    if (!statusUrl) return;
    let live = true;
    void fetchStatus(statusUrl).then((next) => live && setReading(next));
    return () => {
      live = false;
    };
  }, [statusUrl]);

  const { text, tone } = describeStatus(reading, statusUrl ? new URL(statusUrl).host : "", copy);
  const dot = <span data-status-tone={tone} className={cn("status-dot size-2.5 rounded-full", toneClass[tone])} />;
  return (
    // Its trigger is 2.75rem square: the no-script tooltip is placed from that (global.css).
    <TipProvider className="flex [--tip-w:2.75rem]">
      <Tip id="status-dot" content={text} align="end">
        {statusUrl ? (
          <a
            href={statusUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={"linkLabel" in copy ? copy.linkLabel : undefined}
            className={dotTarget}
          >
            {dot}
          </a>
        ) : (
          <button type="button" aria-label={"buttonLabel" in copy ? copy.buttonLabel : undefined} className={dotTarget}>
            {dot}
          </button>
        )}
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
