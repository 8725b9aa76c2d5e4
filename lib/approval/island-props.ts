/**
 * The copy a React island renders only in the browser (the popup's, for one), read from the props Astro
 * serializes into `<astro-island props="…">`, for the approved text (`[island]` lines, text.ts).
 */

/** Keys of island props whose values are never copy (whole subtree skipped): identifiers, links, icon data. */
const NON_TEXT_KEYS = new Set([
  "slot",
  "id",
  "key",
  "ref",
  "href",
  "src",
  "url",
  "icon",
  "iconNode",
  "className",
  "class",
  "style",
  "target",
  "rel",
  "type",
  "role",
]);
/** The same, by suffix in camelCase (`formId`, `frameUrl`, `scriptUrl`, `leadIcon`). */
const NON_TEXT_SUFFIX = /(Id|ID|Url|URL|Href|Src|Icon|IconNode|ClassName)$/;
/** A string that is a link or a path (`https://…`, `mailto:…`, `/x`, `#y`), not words. */
const LINK_LIKE = /^(?:[a-z][a-z\d+.-]*:|\/|#)\S*$/i;

const normalize = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim();

/**
 * Astro serializes island props as `[type, value]` tuples (astro/runtime/server/serialize.js; decision
 * 0020: a test pins the format with Astro's own encoder):
 * 0 plain value (objects recurse), 1 array, 2 RegExp, 3 Date, 4 Map, 5 Set, 6 BigInt, 7 URL,
 * 8–10 typed arrays, 11 ±Infinity. This returns the plain values, with URL, RegExp and typed arrays
 * as `OpaqueProp`, so that the text rule can tell them from strings.
 */
export type DecodedProp = string | number | boolean | null | undefined | DecodedProp[] | { [key: string]: DecodedProp } | OpaqueProp;

/** A prop value that is never text, kept for what it is. */
export class OpaqueProp {
  readonly kind: "url" | "regexp" | "binary";
  readonly value: unknown;
  constructor(kind: OpaqueProp["kind"], value: unknown) {
    this.kind = kind;
    this.value = value;
  }
}

const opaqueKinds = { 2: "regexp", 7: "url", 8: "binary", 9: "binary", 10: "binary" } as const;

function decodeTuple(tuple: unknown): DecodedProp {
  if (!Array.isArray(tuple)) throw new Error(`island props: expected a [type, value] tuple, got ${JSON.stringify(tuple)}`);
  const [type, value] = tuple as [number, unknown];
  switch (type) {
    case 0:
      if (value !== null && typeof value === "object") return decodeObject(value as Record<string, unknown>);
      return value as DecodedProp;
    case 1:
      return (value as unknown[]).map(decodeTuple);
    case 3:
    case 6:
      return String(value);
    case 4:
      // A Map is an array of [key, value] pairs, each itself encoded.
      return (value as unknown[]).map(decodeTuple);
    case 5:
      return (value as unknown[]).map(decodeTuple);
    case 11:
      return (value as number) > 0 ? Infinity : -Infinity;
    case 2:
    case 7:
    case 8:
    case 9:
    case 10:
      return new OpaqueProp(opaqueKinds[type], value);
    default:
      throw new Error(`island props: unknown Astro prop type ${type}`);
  }
}

function decodeObject(object: Record<string, unknown>): { [key: string]: DecodedProp } {
  return Object.fromEntries(Object.entries(object).map(([key, tuple]) => [key, decodeTuple(tuple)]));
}

/** Decodes an `<astro-island props="…">` value (the attribute's text, already entity-decoded). */
export function decodeAstroProps(json: string): { [key: string]: DecodedProp } {
  const parsed: unknown = JSON.parse(json);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("island props: not an object");
  return decodeObject(parsed as Record<string, unknown>);
}

const isTextKey = (key: string) => !NON_TEXT_KEYS.has(key) && !NON_TEXT_SUFFIX.test(key);

/**
 * The text values of decoded island props, in serialization order. A value is text when it is a
 * string that is not empty and not link-like, a finite number, or a date, and no key on its path is
 * an identifier, link or icon key (`NON_TEXT_KEYS`, `NON_TEXT_SUFFIX`). Booleans, URLs, regular
 * expressions and binary data are not text. Numbers count because islands print them (a percentage,
 * a figure); when in doubt, a value is text, since a needless re-approval costs less than unapproved copy.
 */
export function islandPropTexts(props: DecodedProp): string[] {
  return islandPropEntries(props).map((entry) => entry.text);
}

/** Keys whose string values are where the island sends the visitor or what it loads (`href`, `frameUrl`, `scriptUrl`). */
const LINK_KEY = /^(?:href|src|url)$|(?:Url|URL|Href|Src)$/;

/**
 * The links of decoded island props, in serialization order (the text rule 2's `[island link]` lines):
 * every non-empty string under a link key, every link-like string (`https://…`, `mailto:…`, `/x`), and
 * every URL value, each with the key it is under; icons, classes and identifiers are never links.
 */
export function islandPropLinks(props: DecodedProp): Array<{ key: string; link: string }> {
  const out: Array<{ key: string; link: string }> = [];
  const visit = (value: DecodedProp, key: string) => {
    if (typeof value === "string") {
      const text = normalize(value);
      if (text && (LINK_KEY.test(key) || LINK_LIKE.test(text))) out.push({ key, link: text });
    } else if (value instanceof OpaqueProp) {
      if (value.kind === "url") out.push({ key, link: normalize(String(value.value)) });
    } else if (Array.isArray(value)) {
      value.forEach((item) => visit(item, key));
    } else if (value && typeof value === "object") {
      for (const [name, child] of Object.entries(value)) if (LINK_KEY.test(name) || isTextKey(name)) visit(child, name);
    }
  };
  visit(props, "");
  return out;
}

/** The same values with the path of keys and list positions that leads to each (for naming them to a reader). */
export function islandPropEntries(props: DecodedProp): Array<{ path: Array<string | number>; text: string }> {
  const out: Array<{ path: Array<string | number>; text: string }> = [];
  const visit = (value: DecodedProp, path: Array<string | number>) => {
    if (typeof value === "string") {
      const text = normalize(value);
      if (text && !LINK_LIKE.test(text)) out.push({ path, text });
    } else if (typeof value === "number") {
      if (Number.isFinite(value)) out.push({ path, text: String(value) });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...path, i]));
    } else if (value && typeof value === "object" && !(value instanceof OpaqueProp)) {
      for (const [key, child] of Object.entries(value)) if (isTextKey(key)) visit(child, [...path, key]);
    }
  };
  visit(props, []);
  return out;
}
