import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fieldsOf, jsonSchemaOf, studioConfig, type DecapField, type JsonSchema } from "../../studio/config.ts";
import { DOCUMENT_COLLECTIONS, LANDING_FILES, LANDING_FOLDER } from "../../src/content/schemas/files.ts";
import { projectRoot } from "../../lib/root.ts";

const config = studioConfig();
type Collection = (typeof config.collections)[number];
const landing = config.collections.find((c) => c.name === "landing") as Collection & {
  files: Array<{ name: string; file: string; fields: DecapField[] }>;
};
const fieldsOfFile = (name: string) => landing.files.find((f) => f.name === name)!.fields;
const find = (fields: DecapField[], path: string): DecapField => {
  const [head, ...rest] = path.split(".");
  const field = fields.find((f) => f.name === head);
  if (!field) throw new Error(`no field ${path}`);
  return rest.length ? find(field.fields as DecapField[], rest.join(".")) : field;
};

/** What Decap does with a field's `pattern`: the value must match, or the editor shows the message. */
function check(field: DecapField, value: string): string | null {
  const [source, message] = field.pattern as [string, string];
  return new RegExp(source).test(value) ? null : message;
}

/** Every value in a content file checked against its field the way the editor would (strings, lists, choices, numbers). */
function problems(fields: DecapField[], data: Record<string, unknown>, at = ""): string[] {
  return fields.flatMap((field) => {
    const value = data[field.name];
    const where = `${at}${field.name}`;
    if (value === undefined) return field.required === false ? [] : [`${where}: missing`];
    if (field.widget === "list") {
      const list = value as unknown[];
      const count = [
        ...(typeof field.min === "number" && list.length < field.min ? [`${where}: fewer than ${field.min}`] : []),
        ...(typeof field.max === "number" && list.length > field.max ? [`${where}: more than ${field.max}`] : []),
      ];
      const items = list.flatMap((item, i) =>
        field.fields
          ? problems(field.fields as DecapField[], item as Record<string, unknown>, `${where}.${i}.`)
          : problems([{ ...(field.field as DecapField), name: "x" }], { x: item }, `${where}.${i}.`),
      );
      return [...count, ...items];
    }
    if (field.widget === "object") return problems(field.fields as DecapField[], value as Record<string, unknown>, `${where}.`);
    if (field.widget === "select") return (field.options as unknown[]).includes(value) ? [] : [`${where}: not a choice`];
    if (field.widget === "number") return Number.isInteger(value) ? [] : [`${where}: not a whole number`];
    if (field.widget === "datetime") return [];
    const message = check(field, String(value));
    return message ? [`${where}: ${message}`] : [];
  });
}

/** The property paths of a JSON Schema and of a field list, to prove one mirrors the other. */
const schemaPaths = (schema: JsonSchema, at = ""): string[] =>
  Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const items = property.type === "array" && property.items?.type === "object" ? schemaPaths(property.items, `${at}${name}[].`) : [];
    const nested = property.type === "object" ? schemaPaths(property, `${at}${name}.`) : [];
    return [`${at}${name}`, ...items, ...nested];
  });
const fieldPaths = (fields: DecapField[], at = ""): string[] =>
  fields.flatMap((field) => {
    const nested = field.fields
      ? fieldPaths(field.fields as DecapField[], field.widget === "list" ? `${at}${field.name}[].` : `${at}${field.name}.`)
      : [];
    return [`${at}${field.name}`, ...nested];
  });

describe("the studio's configuration comes from the content schemas", () => {
  it("covers every content file: each landing YAML file and each document folder", () => {
    const yamlFiles = readdirSync(join(projectRoot, LANDING_FOLDER)).filter((name) => name.endsWith(".yaml"));
    expect(landing.files.map((f) => f.file).sort()).toEqual(yamlFiles.map((name) => `${LANDING_FOLDER}/${name}`).sort());
    const folders = config.collections.filter((c) => "folder" in c).map((c) => (c as { folder: string }).folder);
    expect(folders.sort()).toEqual(
      Object.values(DOCUMENT_COLLECTIONS)
        .map((c) => c.folder)
        .sort(),
    );
    expect(
      readdirSync(join(projectRoot, "src/content"))
        .filter((name) => name !== "schemas")
        .sort(),
    ).toEqual(["disclosures", "landing", "legal"]);
  });

  it("has a field for every schema property and nothing else (a test fails when they drift)", () => {
    for (const [name, { schema }] of Object.entries(LANDING_FILES))
      expect(fieldPaths(fieldsOfFile(name)), name).toEqual(schemaPaths(jsonSchemaOf(schema)));
    for (const collection of Object.entries(DOCUMENT_COLLECTIONS)) {
      const fields = (config.collections.find((c) => c.name === collection[0]) as { fields: DecapField[] }).fields;
      expect(fieldPaths(fields), collection[0]).toEqual([...schemaPaths(jsonSchemaOf(collection[1].schema)), "body"]);
    }
  });

  it("carries the spec's counts, fixed wording, choices and optional fields", () => {
    const counts = (file: string, path: string) => {
      const field = find(fieldsOfFile(file), path);
      return [field.min, field.max];
    };
    expect(counts("hero", "valueCards")).toEqual([3, 3]);
    expect(counts("features", "capabilities")).toEqual([4, 4]);
    expect(counts("features", "highlights")).toEqual([4, 4]);
    expect(counts("industries", "taglines")).toEqual([8, 8]);
    expect(counts("industries", "cards")).toEqual([3, 3]);
    expect(counts("whyUs", "cards")).toEqual([4, 4]);
    expect(counts("hero", "settlement.participants")).toEqual([4, 6]);
    expect(check(find(fieldsOfFile("contact"), "formTitle"), "Contact us")).toBe('Form title must read "Contact Us"');
    expect(check(find(fieldsOfFile("popup"), "heading"), "Under Development")).toBeNull();
    expect(find(fieldsOfFile("hero"), "valueCards.icon").options).toContain("award");
    const legal = (config.collections.find((c) => c.name === "legal") as { fields: DecapField[] }).fields;
    expect(find(legal, "warning").required).toBe(false);
    expect(find(legal, "title").required).toBeUndefined();
    expect(find(legal, "body")).toMatchObject({ widget: "markdown", modes: ["raw"] });
  });

  it("refuses in the editor what the build refuses, with a message naming the field", () => {
    const headline = find(fieldsOfFile("hero"), "headline");
    const rule = "Headline: 1 to 120 characters, plain text (no HTML tags)";
    expect(check(headline, "")).toBe(rule);
    expect(check(headline, "   ")).toBe(rule);
    expect(check(headline, "x".repeat(121))).toBe(rule);
    // Copy is plain text: markup is refused where it is typed, as the build's schema refuses it.
    expect(check(headline, "Settle <script>alert(1)</script>")).toBe(rule);
    expect(check(headline, "Settle <b>now</b>")).toBe(rule);
    expect(check(headline, "Settle<!-- hidden -->")).toBe(rule);
    expect(check(headline, "Latency < 1 ms, settled 2<3")).toBeNull();
    expect(check(find(fieldsOfFile("hero"), "valueCards.title"), "")).toBe("Title: 1 to 60 characters, plain text (no HTML tags)");
    const checking = find(fieldsOfFile("status"), "checking");
    expect(check(checking, "Platform status")).toMatch(/^Checking: 1 to 120 characters/);
    expect(check(checking, "Platform status: see {host}")).toBeNull();
  });

  it("accepts every content file as it is today", () => {
    for (const [name, { file }] of Object.entries(LANDING_FILES)) {
      const data = parse(readFileSync(join(projectRoot, LANDING_FOLDER, file), "utf8")) as Record<string, unknown>;
      expect(problems(fieldsOfFile(name), data), file).toEqual([]);
    }
  });

  it("names a collapsed list item by its title, as the page shows it, not by its first field (an icon's name)", () => {
    const lists: DecapField[] = [];
    const walk = (fields: DecapField[]) =>
      fields.forEach((f) => {
        if (f.widget === "list" && Array.isArray(f.fields)) lists.push(f);
        if (Array.isArray(f.fields)) walk(f.fields as DecapField[]);
      });
    walk(Object.keys(LANDING_FILES).flatMap((name) => fieldsOfFile(name)));
    const titled = lists.filter((l) => (l.fields as DecapField[]).some((f) => f.name === "title"));
    expect(titled.length).toBeGreaterThan(0);
    for (const list of titled) expect(list.summary, list.name).toBe("{{fields.title}}");
    expect(config.backend).toEqual({ name: "proxy", proxy_url: "/api/v1", branch: "main" });
  });

  it("adds disclosures, never legal pages; names a new page's address from its title as the build's rule does", () => {
    const collection = (name: string) => config.collections.find((c) => c.name === name) as unknown as Record<string, unknown>;
    expect(collection("legal")).toMatchObject({ create: false, delete: false });
    expect(collection("disclosures")).toMatchObject({ create: true, delete: false, label_singular: "Disclosure", slug: "{{slug}}" });
    expect(config.slug).toEqual({ encoding: "ascii", clean_accents: true, sanitize_replacement: "-" });
    const disclosures = collection("disclosures").fields as DecapField[];
    expect(find(disclosures, "title").hint).toMatch(/address is made from its title/);
    expect(find(disclosures, "withdrawn")).toMatchObject({ widget: "datetime", required: false });
    expect(find(disclosures, "withdrawn").hint).toContain("/business-continuity cannot be withdrawn: FINRA Rule 4370");
  });

  it.each([
    // the legal pages as they are: six sections each
    ["legal", readFileSync(join(projectRoot, "src/content/legal/cookie-policy.md"), "utf8").split(/^---$/m)[2]!, null],
    ["disclosures", readFileSync(join(projectRoot, "src/content/disclosures/business-continuity.md"), "utf8").split(/^---$/m)[2]!, null],
    // one section is enough for a disclosure; a "### " line is not one
    ["disclosures", "## Fees\n\nOur fees.\n\n### In detail\n", null],
    // none, or thirteen: refused before a save, saying why
    ["disclosures", "Our fees.\n\n### In detail\n", /^Text: 1 to 12 sections, each starting with a line "## "/],
    ["disclosures", Array.from({ length: 13 }, (_, i) => `## Part ${i + 1}\n\nText.`).join("\n\n"), /^Text: 1 to 12 sections/],
    ["legal", "## One\n\n## Two\n", /^Text: exactly 6 sections/],
  ])("checks a %s body's sections as the build does (%#)", (name, body, message) => {
    const fields = (config.collections.find((c) => c.name === name) as { fields: DecapField[] }).fields;
    const problem = check(find(fields, "body"), body);
    if (message) expect(problem).toMatch(message);
    else expect(problem).toBeNull();
  });

  it("names the field it cannot map instead of guessing", () => {
    expect(() => fieldsOf({ type: "object", properties: { odd: { type: "null" } }, required: ["odd"] })).toThrow(
      'no widget for field "odd"',
    );
  });
});
