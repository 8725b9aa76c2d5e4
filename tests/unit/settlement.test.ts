import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { heroSchema } from "@/content/schemas/landing";
import {
  allPairsPath,
  labelWidth,
  settlementLayout,
  type NetPosition,
  type Point,
} from "@/components/sections/SettlementFigure/settlement";

const hero = heroSchema.parse(parse(readFileSync("src/content/landing/hero.yaml", "utf8")));
const names = ["Hedge fund", "Bank", "Market maker", "Broker-dealer", "Custodian", "Exchange"];
const group = (n: number, nets: NetPosition[] = ["pays", "receives"]) =>
  names.slice(0, n).map((name, i) => ({ name, net: nets[i] ?? ("flat" as const) }));

/** The straight segments a path draws ("M x y x y … Z" polygons and "M x y L x y" lines), as unordered point pairs. */
function segmentsOf(d: string): Set<string> {
  const key = (a: Point, b: Point) => [`${a.x},${a.y}`, `${b.x},${b.y}`].sort().join("-");
  const found = new Set<string>();
  for (const piece of d.split("M").filter(Boolean)) {
    const closed = piece.endsWith("Z");
    const numbers = piece.replace(/[LZ]/g, " ").trim().split(/\s+/).map(Number);
    const points: Point[] = [];
    for (let i = 0; i < numbers.length; i += 2) points.push({ x: numbers[i]!, y: numbers[i + 1]! });
    for (let i = 1; i < points.length; i++) found.add(key(points[i - 1]!, points[i]!));
    if (closed && points.length > 2) found.add(key(points[points.length - 1]!, points[0]!));
  }
  return found;
}

describe("net-settlement drawing", () => {
  it.each([4, 5, 6])("joins every pair of %d participants exactly once, in one path", (n) => {
    const layout = settlementLayout(group(n));
    expect(layout.gross).toHaveLength((n * (n - 1)) / 2);
    const drawn = segmentsOf(allPairsPath(layout.participants.map((p) => p.at)));
    expect(drawn.size).toBe((n * (n - 1)) / 2);
    for (const [a, b] of layout.gross) expect(drawn.has([`${a.x},${a.y}`, `${b.x},${b.y}`].sort().join("-"))).toBe(true);
  });

  it("draws one net transfer per participant that does not net to zero, in the direction the money moves", () => {
    const layout = settlementLayout(group(5, ["pays", "receives", "flat", "pays", "flat"]));
    expect(layout.net).toHaveLength(3);
    const { venue } = layout;
    const inVenue = (p: Point) =>
      p.x >= venue.x - 8 && p.x <= venue.x + venue.width + 8 && p.y >= venue.y - 8 && p.y <= venue.y + venue.height + 8;
    // A payer's line ends at the venue (where the arrowhead goes); a receiver's starts there.
    expect(inVenue(layout.net[0]![1])).toBe(true);
    expect(inVenue(layout.net[1]![0])).toBe(true);
    expect(inVenue(layout.net[2]![1])).toBe(true);
  });

  it.each([4, 5, 6])("keeps every label of %d participants inside the drawing, whatever their length", (n) => {
    for (const participants of [group(n), group(n).map((p) => ({ ...p, name: "Sixteen chars ok" }))]) {
      const layout = settlementLayout(participants);
      for (const p of layout.participants) {
        const w = labelWidth(p.name);
        const left = p.label.anchor === "start" ? p.label.x : p.label.anchor === "end" ? p.label.x - w : p.label.x - w / 2;
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left + w).toBeLessThanOrEqual(layout.width);
        expect(p.label.y - 16).toBeGreaterThanOrEqual(0);
        expect(p.label.y).toBeLessThanOrEqual(layout.height);
      }
    }
  });

  it("uses whole numbers only, so the markup stays short", () => {
    const layout = settlementLayout(hero.settlement.participants);
    const numbers = [
      ...layout.participants.flatMap((p) => [p.at.x, p.at.y, p.label.x, p.label.y]),
      ...layout.net.flat().flatMap((p) => [p.x, p.y]),
    ];
    expect(numbers.every(Number.isInteger)).toBe(true);
  });

  it("shows the copy's five participants as ten obligations and three net transfers", () => {
    const layout = settlementLayout(hero.settlement.participants);
    expect(layout.participants.map((p) => p.name)).toEqual(["Hedge fund", "Bank", "Market maker", "Broker-dealer", "Custodian"]);
    expect(layout.gross).toHaveLength(10);
    expect(layout.net).toHaveLength(3);
  });
});
