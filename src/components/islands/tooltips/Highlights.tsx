import { Info } from "lucide";
import type { Highlight } from "@/content/schemas/landing";
import { Icon } from "@/components/ui/icons/Icon";
import { SvgIcon } from "@/components/ui/SvgIcon";
import { IslandBoundary } from "../IslandBoundary";
import { Tip, TipProvider } from "./Tip";

/**
 * The four highlights with a figure each; the info button opens a tooltip explaining the figure. Icons
 * travel by name (the island bundle has their drawings), not as path data in the page's props.
 */
function HighlightList({ highlights }: { highlights: Highlight[] }) {
  return (
    <TipProvider className="mt-12">
      <ul
        className="border-line bg-line grid gap-px overflow-hidden rounded-2xl border sm:grid-cols-2 lg:grid-cols-4"
        aria-label="Highlights"
        data-tips-inline=""
      >
        {highlights.map((item, index) => (
          <li key={item.title} className="bg-surface flex items-start gap-4 p-5">
            <Icon name={item.icon} className="text-accent-strong mt-1 size-6 shrink-0" />
            <div className="min-w-0 flex-1">
              <p className="text-2xl font-semibold tabular-nums">{item.figure}</p>
              <div className="flex flex-wrap items-center gap-1">
                <h3 className="text-muted text-sm font-medium">{item.title}</h3>
                {/* The right-hand cells' tooltips end under their trigger, so they stay on a two- or four-column page. */}
                <Tip id={`highlight-${index}`} content={item.tooltip} align={index % 2 ? "end" : "center"}>
                  <button
                    type="button"
                    aria-label={`About ${item.title}`}
                    className="text-muted hover:text-ink inline-flex size-8 items-center justify-center rounded-full"
                  >
                    <SvgIcon node={Info} className="size-4" />
                  </button>
                </Tip>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </TipProvider>
  );
}

export function Highlights({ highlights }: { highlights: Highlight[] }) {
  return (
    <IslandBoundary name="Highlights">
      <HighlightList highlights={highlights} />
    </IslandBoundary>
  );
}
