/**
 * The content studio's Decap CMS configuration, generated from the content schemas (Zod, through its
 * JSON Schema output): one source of truth, so the editor refuses what the build would refuse, with a
 * message naming the field. Counts become list `min`/`max`, lengths and patterns one `pattern` per
 * field, choices a `select`, fixed wording (a Zod literal) an exact pattern, optional fields
 * `required: false`. Rules JSON Schema cannot carry (a refinement across list items) stay with the build.
 */
import { z } from "zod";
import { DOCUMENT_COLLECTIONS, LANDING_FILES, LANDING_FOLDER, REQUIRED_DISCLOSURES } from "../src/content/schemas/files.ts";
import type { SectionCount } from "../src/build/legal.ts";
import { NO_MARKUP } from "../src/content/schemas/plain-text.ts";

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  allOf?: JsonSchema[];
  enum?: Array<string | number>;
  const?: string | number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

export type DecapField = Record<string, unknown> & { name: string; label: string; widget: string };

/** "pageDescription" → "Page description", "whyUs" → "Why us". */
export const labelOf = (name: string) => {
  const words = name.replace(/([a-z\d])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every pattern a string schema carries, its own and those under `allOf` (Zod puts a second `.regex` there). */
const patternsOf = (schema: JsonSchema): string[] => [
  ...(schema.pattern ? [schema.pattern] : []),
  ...(schema.allOf ?? []).flatMap(patternsOf),
];

/** A JSON Schema of the content, with dates as `format: date` strings (front matter `lastUpdated`). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: (ctx) => {
      if ((ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def.type === "date") {
        Object.assign(ctx.jsonSchema, { type: "string", format: "date" });
      }
    },
  }) as JsonSchema;
}

/** One Decap field for one property of a schema. */
export function fieldOf(name: string, schema: JsonSchema, required: boolean): DecapField {
  const label = labelOf(name);
  const base = { name, label, ...(required ? {} : { required: false }) };
  if (schema.const !== undefined) {
    const text = String(schema.const);
    return {
      ...base,
      widget: "string",
      default: text,
      hint: `Fixed wording: "${text}".`,
      pattern: [`^${escapeRegExp(text)}$`, `${label} must read "${text}"`],
    };
  }
  if (schema.enum) return { ...base, widget: "select", options: schema.enum };
  if (schema.type === "string" && schema.format === "date")
    return { ...base, widget: "datetime", format: "YYYY-MM-DD", date_format: "YYYY-MM-DD", time_format: false };
  if (schema.type === "string") {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength;
    const length = max === undefined ? `{${min},}` : `{${min},${max}}`;
    // Lookaheads: not only white space (the build trims), and each of the schema's own patterns.
    const lookaheads = [...(min > 0 ? ["[\\s\\S]*\\S"] : []), ...patternsOf(schema).map((p) => `[\\s\\S]*?(?:${p})`)];
    const rule = `^${lookaheads.map((l) => `(?=${l})`).join("")}[\\s\\S]${length}$`;
    const words = max === undefined ? `at least ${min} characters` : `${min} to ${max} characters`;
    const own = patternsOf(schema).filter((p) => p !== NO_MARKUP.source);
    const plain = own.length < patternsOf(schema).length ? ", plain text (no HTML tags)" : "";
    const extra = `${plain}${own.length > 0 ? ", with the placeholders its hint names" : ""}`;
    return { ...base, widget: max !== undefined && max > 160 ? "text" : "string", pattern: [rule, `${label}: ${words}${extra}`] };
  }
  if (schema.type === "integer" || schema.type === "number")
    return { ...base, widget: "number", value_type: schema.type === "integer" ? "int" : "float", min: schema.minimum, max: schema.maximum };
  if (schema.type === "array" && schema.items) {
    const counts = { min: schema.minItems, max: schema.maxItems };
    const fixed = counts.min !== undefined && counts.min === counts.max;
    const list = { ...base, widget: "list", ...counts, ...(fixed ? { hint: `Exactly ${counts.min}.` } : {}) };
    if (schema.items.type === "object") {
      // A collapsed item is named by its title (or name, heading), as the page shows it, not by its first field (an icon's name).
      const named = ["title", "name", "heading", "label"].find((key) => schema.items!.properties?.[key]?.type === "string");
      return { ...list, ...(named ? { summary: `{{fields.${named}}}` } : {}), fields: fieldsOf(schema.items) };
    }
    return { ...list, field: fieldOf(name.replace(/s$/, "") || name, schema.items, true) };
  }
  if (schema.type === "object") return { ...base, widget: "object", fields: fieldsOf(schema) };
  throw new Error(`studio config: no widget for field "${name}" (${JSON.stringify(schema)})`);
}

export function fieldsOf(schema: JsonSchema): DecapField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => fieldOf(name, property, required.has(name)));
}

/**
 * The body's rule: between `min` and `max` "## " heading lines (the page's contents list is made from
 * them, and the build checks the same count).
 */
export function sectionsPattern({ min, max }: SectionCount): [string, string] {
  const heading = "(?:^|\\n) {0,3}##[ \\t]+\\S";
  const rule = `^(?=(?:[\\s\\S]*?${heading}){${min}})(?![\\s\\S]*?(?:${heading}[\\s\\S]*?){${max + 1}})`;
  const count = min === max ? `exactly ${min} sections` : `${min} to ${max} sections`;
  return [rule, `Text: ${count}, each starting with a line "## " and its heading (the contents list is made from them)`];
}

/** What an editor needs to know beside a document's fields, that the schema cannot say. */
const DOCUMENT_HINTS: Record<string, Record<string, string>> = {
  disclosures: {
    title: "A new disclosure's address is made from its title when it is first saved (Fee Schedule: /fee-schedule), and stays.",
    withdrawn: `Set the day to withdraw this disclosure: after review and publishing its address says it was withdrawn then. ${Object.keys(
      REQUIRED_DISCLOSURES,
    )
      .map((slug) => `/${slug} cannot be withdrawn: ${REQUIRED_DISCLOSURES[slug]}.`)
      .join(" ")}`,
  },
};

/** The whole Decap configuration object (written to the admin page as config.yml). */
export function studioConfig() {
  return {
    // Decap's proxy backend, on the studio's own origin: its requests carry the session cookie, and the
    // studio screens each (not `local_backend`, which Decap uses only on localhost).
    backend: { name: "proxy", proxy_url: "/api/v1", branch: "main" },
    publish_mode: "editorial_workflow",
    media_folder: "studio/media-unused",
    // A new page's address from its title: ASCII, accents dropped, other characters as hyphens (src/shared/addresses.ts).
    slug: { encoding: "ascii", clean_accents: true, sanitize_replacement: "-" },
    collections: [
      {
        name: "landing",
        label: "Landing page",
        editor: { preview: true },
        files: Object.entries(LANDING_FILES).map(([name, { file, label, schema }]) => ({
          name,
          label,
          file: `${LANDING_FOLDER}/${file}`,
          fields: fieldsOf(jsonSchemaOf(schema)),
        })),
      },
      ...Object.entries(DOCUMENT_COLLECTIONS).map(([name, { folder, label, schema, sections, create }]) => ({
        name,
        label,
        label_singular: label.replace(/s$/, ""),
        folder,
        extension: "md",
        format: "frontmatter",
        // New pages only where the firm adds them (disclosures); never a deletion: a withdrawal is a reviewed edit.
        create,
        delete: false,
        identifier_field: "title",
        slug: "{{slug}}",
        // "View Preview" opens the branch's preview build at the document's own path.
        preview_path: "{{slug}}",
        fields: [
          ...fieldsOf(jsonSchemaOf(schema)).map((field) => {
            const hint = DOCUMENT_HINTS[name]?.[field.name];
            return hint ? { ...field, hint } : field;
          }),
          // Raw Markdown: the rich-text mode re-escapes Markdown on save (decap-cms#4360).
          { name: "body", label: "Text", widget: "markdown", modes: ["raw"], pattern: sectionsPattern(sections) },
        ],
      })),
    ],
  };
}
