import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { z } from "zod";
import { contactSchema, featuresSchema, heroSchema, industriesSchema, whyUsSchema } from "@/content/schemas/landing";
import { disclosureSchema, legalSchema } from "@/content/schemas/legal";

const landing = (name: string) => parse(readFileSync(`src/content/landing/${name}.yaml`, "utf8"));
const frontMatter = (file: string) => parse(readFileSync(file, "utf8").split(/^---$/m)[1] ?? "");
const issuesOf = (schema: z.ZodType, data: unknown) => {
  const result = schema.safeParse(data);
  return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
};

describe("landing copy files", () => {
  it.each([
    ["hero", heroSchema],
    ["features", featuresSchema],
    ["industries", industriesSchema],
    ["why-us", whyUsSchema],
    ["contact", contactSchema],
  ] as const)("%s.yaml matches its schema", (name, schema) => {
    expect(issuesOf(schema, landing(name))).toEqual([]);
  });

  it("carries the spec's card titles", () => {
    expect(landing("hero").valueCards.map((c: { title: string }) => c.title)).toEqual([
      "Proven Excellence",
      "Industry Standard",
      "Innovation Leader",
    ]);
    expect(landing("features").capabilities.map((c: { title: string }) => c.title)).toEqual([
      "Regulatory Excellence",
      "Advanced Infrastructure",
      "Global Market Access",
      "Institutional Grade Platform",
    ]);
    expect(landing("features").highlights.map((c: { title: string }) => c.title)).toEqual([
      "Bank-Grade Security",
      "Dedicated Support",
      "Regulated ATS",
      "Ultra-Low Latency",
    ]);
    expect(landing("industries").cards.map((c: { title: string }) => c.title)).toEqual(["Tokenization", "Net Settling", "Clearing"]);
    expect(landing("why-us").cards.map((c: { title: string }) => c.title)).toEqual([
      "Market Leadership",
      "Proven Security",
      "Global Reach",
      "Institutional Focus",
    ]);
  });

  it.each([
    // two value cards instead of three
    ["hero", heroSchema, (d: any): unknown => d.valueCards.pop(), "valueCards"],
    // a fifth capability card
    ["features", featuresSchema, (d: any): unknown => d.capabilities.push(d.capabilities[0]), "capabilities"],
    // three highlights instead of four
    ["features", featuresSchema, (d: any): unknown => d.highlights.pop(), "highlights"],
    // seven industries instead of eight
    ["industries", industriesSchema, (d: any): unknown => d.taglines.pop(), "taglines"],
    // a title that is a number
    ["industries", industriesSchema, (d: any): unknown => (d.cards[0].title = 42), "cards.0.title"],
    // an icon that does not exist
    ["why-us", whyUsSchema, (d: any): unknown => (d.cards[1].icon = "rocket"), "cards.1.icon"],
    // an unknown key (a typo in a field name)
    ["why-us", whyUsSchema, (d: any): unknown => (d.headng = "x"), ""],
    // the form title is the spec's "Contact Us"
    ["contact", contactSchema, (d: any): unknown => (d.formTitle = "Write to us"), "formTitle"],
    // a drawing of net settlement with three participants (four to six)
    ["hero", heroSchema, (d: any): unknown => d.settlement.participants.splice(3), "settlement.participants"],
    // nobody receives: the net amounts cannot balance
    [
      "hero",
      heroSchema,
      (d: any): unknown => d.settlement.participants.forEach((p: { net: string }) => (p.net = p.net === "receives" ? "flat" : p.net)),
      "settlement.participants",
    ],
    // a position that is not pays, receives or flat
    ["hero", heroSchema, (d: any): unknown => (d.settlement.participants[0].net = "owes"), "settlement.participants.0.net"],
    // markup in copy: React would show it as typed, a principal would approve it as words
    ["hero", heroSchema, (d: any): unknown => (d.headline = "Trade <script>alert(1)</script>"), "headline"],
    ["contact", contactSchema, (d: any): unknown => (d.lede = "Write to us <!-- or not -->"), "lede"],
    ["why-us", whyUsSchema, (d: any): unknown => (d.cards[0].body = 'A card <img src=x onerror="alert(1)">'), "cards.0.body"],
    // a label too long for the drawing
    [
      "hero",
      heroSchema,
      (d: any): unknown => (d.settlement.participants[0].name = "Global macro hedge fund"),
      "settlement.participants.0.name",
    ],
  ] as const)("rejects a broken %s file at %s", (name, schema, breakIt, path) => {
    const data = landing(name);
    breakIt(data);
    expect(issuesOf(schema, data)).toContain(path);
  });
});

describe("legal pages", () => {
  const files = readdirSync("src/content/legal").map((f) => `src/content/legal/${f}`);

  it("are the four legal pages", () => {
    expect(files.sort()).toEqual(
      ["cookie-policy", "privacy-policy", "risk-disclosures", "terms-of-service"].map((s) => `src/content/legal/${s}.md`),
    );
  });

  it.each(files)('%s has valid front matter and six "## " sections in its body', (file) => {
    expect(issuesOf(legalSchema, frontMatter(file))).toEqual([]);
    expect(readFileSync(file, "utf8").match(/^## \S/gm)).toHaveLength(6);
  });

  it.each([
    // a withdrawal: the legal pages are the specification's four
    [(d: any): unknown => (d.withdrawn = "2026-12-01"), ""],
    // a date that is not a date
    [(d: any): unknown => (d.lastUpdated = "sometime"), "lastUpdated"],
    // no title
    [(d: any): unknown => delete d.title, "title"],
    // a description too short for search results
    [(d: any): unknown => (d.description = "Short."), "description"],
    // markup in a title or a warning (shown as typed, approved as words)
    [(d: any): unknown => (d.title = "Terms <b>of</b> Service"), "title"],
    [(d: any): unknown => (d.warning = "Risky <script>alert(1)</script>"), "warning"],
  ] as const)("rejects broken front matter at %#", (breakIt, path) => {
    const data = frontMatter(files[0]!);
    breakIt(data);
    expect(issuesOf(legalSchema, data)).toContain(path);
  });
});

describe("disclosures", () => {
  const file = "src/content/disclosures/business-continuity.md";

  it.each([
    // in force: no withdrawal, or an emptied one (what the editor's Clear leaves)
    [{}, undefined],
    [{ withdrawn: "" }, undefined],
    [{ withdrawn: null }, undefined],
    // withdrawn on a day
    [{ withdrawn: "2026-12-01" }, "2026-12-01T00:00:00.000Z"],
  ])("reads %j as withdrawn on %s", (extra, day) => {
    const data = disclosureSchema.parse({ ...frontMatter(file), ...extra });
    expect(data.withdrawn?.toISOString()).toBe(day);
  });

  it("refuses a withdrawal that is not a day", () => {
    expect(issuesOf(disclosureSchema, { ...frontMatter(file), withdrawn: "soon" })).toEqual(["withdrawn"]);
  });
});
