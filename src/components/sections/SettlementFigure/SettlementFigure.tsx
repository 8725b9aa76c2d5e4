import "@/styles/settlement.css";
import type { SettlementCopy } from "@/content/schemas/landing";
import {
  allPairsPath,
  segmentsPath,
  SETTLEMENT_SIZE,
  settlementLayout,
  type PlacedParticipant,
} from "@/components/sections/SettlementFigure/settlement";

/** Round dots as zero-length strokes with round caps: one path for many dots. */
const dots = (participants: PlacedParticipant[]) => participants.map((p) => `M${p.at.x} ${p.at.y}h0`).join("");

/**
 * Net settlement as a drawing: criss-crossing gross obligations between the participants (dashed, faint)
 * and the few net transfers through the venue (solid, with arrowheads). Colours are `currentColor`, and
 * settlement.css gives them system colours in Windows high-contrast mode, where dash and weight still
 * tell the two kinds of line apart. The drawing is hidden from assistive technology; the caption says
 * what it shows.
 */
export function SettlementFigure({ copy, className }: { copy: SettlementCopy; className?: string }) {
  const layout = settlementLayout(copy.participants);
  const { venue } = layout;
  const mid = venue.x + venue.width / 2;
  const settling = layout.participants.filter((p) => p.net !== "flat");
  const flat = layout.participants.filter((p) => p.net === "flat");
  return (
    <figure className={className}>
      <svg
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        aria-hidden="true"
        fill="currentColor"
        fontSize={SETTLEMENT_SIZE.fontSize}
        className="settle"
      >
        {/* An arrowhead in the line's own units (3 × 3 is a marker's default size), so it scales with the stroke. */}
        <marker id="settle-arrow" refX="2" refY="1.5" orient="auto" className="text-accent">
          <path d="M0 0 3 1.5 0 3z" />
        </marker>
        <path d={allPairsPath(layout.participants.map((p) => p.at))} className="settle-gross text-muted-on-dark" strokeDasharray="3 5" />
        {/* One path per transfer: a marker ends a whole path, not each of its pieces. */}
        <g className="settle-net text-accent" strokeWidth="2.5" markerEnd="url(#settle-arrow)">
          {layout.net.map((segment) => (
            <path key={segmentsPath([segment])} d={segmentsPath([segment])} />
          ))}
        </g>
        <path d={dots(settling)} className="settle-dot text-accent" />
        {flat.length > 0 && <path d={dots(flat)} className="settle-dot text-muted-on-dark" />}
        <rect {...venue} rx="12" className="text-accent" stroke="currentColor" strokeWidth="1.5" />
        <text x={mid} y={venue.y + 25} textAnchor="middle" fontWeight="600">
          {copy.venue}
        </text>
        <text x={mid} y={venue.y + 44} textAnchor="middle" fontSize="15" className="text-muted-on-dark">
          {copy.venueDetail}
        </text>
        {layout.participants.map((p) => (
          <text key={p.name} x={p.label.x} y={p.label.y} textAnchor={p.label.anchor === "start" ? undefined : p.label.anchor}>
            {p.name}
          </text>
        ))}
      </svg>
      <figcaption className="text-muted-on-dark mt-2 flex justify-center gap-6 text-sm">
        <span className="settle-key">{`${layout.gross.length} ${copy.grossLabel}`}</span>
        <span className="settle-key">{`${layout.net.length} ${copy.netLabel}`}</span>
      </figcaption>
    </figure>
  );
}
