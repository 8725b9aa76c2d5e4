/**
 * Geometry of the hero's net-settlement drawing: participants on a circle around the venue, every pair
 * joined by a gross obligation, and one net transfer per participant that does not net to zero, drawn
 * between it and the venue in the direction the money moves. Integers only, so the SVG stays short.
 */

export type NetPosition = "pays" | "receives" | "flat";

export interface Participant {
  name: string;
  net: NetPosition;
}

export interface Point {
  x: number;
  y: number;
}

export interface PlacedParticipant extends Participant {
  at: Point;
  /** Where the label starts, and how it is anchored, so that it sits outside the circle. */
  label: Point & { anchor: "start" | "middle" | "end" };
}

export interface SettlementLayout {
  width: number;
  height: number;
  /** The venue's box. */
  venue: { x: number; y: number; width: number; height: number };
  participants: PlacedParticipant[];
  /** One segment per pair of participants. */
  gross: Array<[Point, Point]>;
  /** From payer to venue, or from venue to receiver, ending where the arrowhead goes. */
  net: Array<[Point, Point]>;
}

/** Drawing units: the circle, the venue's box and the label type. */
export const SETTLEMENT_SIZE = { radius: 130, venueWidth: 148, venueHeight: 56, fontSize: 16 } as const;
/** Space above the highest label's baseline (cap height) and below the lowest one (descenders). */
const LABEL_ASCENT = 16;
const LABEL_DESCENT = 6;
/** Gap between a dot and its label. */
const LABEL_GAP = 14;

/**
 * A label's width estimated from its length (0.62 em a character, what DejaVu Sans, the widest common
 * system face, needs for lowercase words), so that the drawing can be exactly as wide as its labels.
 */
export const labelWidth = (text: string) => Math.ceil(text.length * 0.62 * SETTLEMENT_SIZE.fontSize);

const round = (n: number) => Math.round(n);

/** Where the ray from the centre towards `to` leaves a box of half-sizes hw × hh around the centre, plus a gap. */
function boxExit(centre: Point, to: Point, hw: number, hh: number, gap: number): Point {
  const dx = to.x - centre.x;
  const dy = to.y - centre.y;
  const length = Math.hypot(dx, dy);
  const t = Math.min(dx ? hw / Math.abs(dx) : Infinity, dy ? hh / Math.abs(dy) : Infinity);
  const extra = gap / length;
  return { x: round(centre.x + dx * (t + extra)), y: round(centre.y + dy * (t + extra)) };
}

/** A point `by` units from `from` towards `to`. */
function towards(from: Point, to: Point, by: number): Point {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  return { x: round(from.x + (dx / length) * by), y: round(from.y + (dy / length) * by) };
}

/**
 * Lays the participants out clockwise from the top. Labels go above the top dot, below the bottom ones
 * and outside the side ones; the width fits the widest side, the height the labels.
 */
export function settlementLayout(participants: Participant[]): SettlementLayout {
  const { radius, venueWidth, venueHeight } = SETTLEMENT_SIZE;
  const around = participants.map((participant, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / participants.length;
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const anchor: PlacedParticipant["label"]["anchor"] = Math.abs(sin) > 0.5 ? "middle" : cos > 0 ? "start" : "end";
    const offset = { x: radius * cos, y: radius * sin };
    const halfWidth =
      Math.abs(offset.x) + (anchor === "middle" ? labelWidth(participant.name) / 2 : LABEL_GAP + labelWidth(participant.name));
    return { participant, offset, anchor, sin, halfWidth };
  });
  const width = 2 * Math.ceil(Math.max(venueWidth / 2, ...around.map((a) => a.halfWidth)) + 2);
  // Every layout starts at the top, so the highest label is the top dot's.
  const centre = { x: width / 2, y: radius + LABEL_GAP + LABEL_ASCENT };
  const placed = around.map(({ participant, offset, anchor, sin }): PlacedParticipant => {
    const at = { x: round(centre.x + offset.x), y: round(centre.y + offset.y) };
    const dy = sin < -0.5 ? -LABEL_GAP : sin > 0.5 ? LABEL_GAP + LABEL_ASCENT - 4 : 5;
    const dx = anchor === "start" ? LABEL_GAP : anchor === "end" ? -LABEL_GAP : 0;
    return { ...participant, at, label: { x: at.x + dx, y: at.y + dy, anchor } };
  });
  const gross: Array<[Point, Point]> = [];
  placed.forEach((a, i) => placed.slice(i + 1).forEach((b) => gross.push([a.at, b.at])));
  const net = placed
    .filter((p) => p.net !== "flat")
    .map((p): [Point, Point] => {
      const nearVenue = boxExit(centre, p.at, venueWidth / 2, venueHeight / 2, 6);
      const nearParticipant = towards(p.at, centre, 12);
      return p.net === "pays" ? [nearParticipant, nearVenue] : [nearVenue, nearParticipant];
    });
  const height = Math.max(...placed.map((p) => p.label.y)) + LABEL_DESCENT;
  return {
    width,
    height,
    venue: { x: centre.x - venueWidth / 2, y: centre.y - venueHeight / 2, width: venueWidth, height: venueHeight },
    participants: placed,
    gross,
    net,
  };
}

/** One SVG path of straight segments ("M1 2L3 4M…"). */
export function segmentsPath(segments: Array<[Point, Point]>): string {
  return segments.map(([a, b]) => `M${a.x} ${a.y}L${b.x} ${b.y}`).join("");
}

/**
 * Every pair of the points joined, as closed polygons where it can: for five points the pentagon and
 * the pentagram, about half the characters of one segment per pair. Step k joins each point to the
 * k-th next one; for an even count the longest step gives diameters, drawn once each.
 */
export function allPairsPath(points: Point[]): string {
  const n = points.length;
  const xy = (p: Point) => `${p.x} ${p.y}`;
  let d = "";
  for (let k = 1; k <= Math.floor(n / 2); k++) {
    if (2 * k === n) {
      for (let i = 0; i < k; i++) d += `M${xy(points[i]!)}L${xy(points[i + k]!)}`;
      continue;
    }
    const cycles = gcd(n, k);
    for (let start = 0; start < cycles; start++) {
      const cycle: Point[] = [];
      for (let i = start; cycle.length < n / cycles; i = (i + k) % n) cycle.push(points[i]!);
      d += `M${cycle.map(xy).join(" ")}Z`;
    }
  }
  return d;
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
