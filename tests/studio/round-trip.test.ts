import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// Decap's own formatters (the code its editor saves with), not a re-implementation.
import yamlFormatter from "decap-cms-core/dist/esm/formats/yaml.js";
import { frontmatterYAML } from "decap-cms-core/dist/esm/formats/frontmatter.js";
import { documentFiles } from "../../src/build/content-files.ts";
import { LANDING_FILES, LANDING_FOLDER } from "../../src/content/schemas/files.ts";
import { studioConfig, type DecapField } from "../../studio/config.ts";
import { projectRoot } from "../../lib/root.ts";

const config = studioConfig();
const fieldNames = (collection: string, file?: string): string[] => {
  const entry = config.collections.find((c) => c.name === collection) as {
    fields?: DecapField[];
    files?: Array<{ name: string; fields: DecapField[] }>;
  };
  const fields = file ? entry.files!.find((f) => f.name === file)!.fields : entry.fields!;
  return fields.map((f) => f.name);
};

/** A file as the studio writes it back after opening and saving it unchanged. */
export const landingAsSaved = (name: keyof typeof LANDING_FILES, text: string) =>
  yamlFormatter.toFile(yamlFormatter.fromFile(text), fieldNames("landing", name));
export const documentAsSaved = (collection: string, text: string) => {
  const formatter = frontmatterYAML();
  return formatter.toFile(
    formatter.fromFile(text),
    fieldNames(collection).filter((n) => n !== "body"),
  );
};

describe("the content files are in the form the studio saves", () => {
  it.each(Object.keys(LANDING_FILES) as Array<keyof typeof LANDING_FILES>)(
    "%s: opening and saving it in the studio changes nothing",
    (name) => {
      const text = readFileSync(join(projectRoot, LANDING_FOLDER, LANDING_FILES[name].file), "utf8");
      expect(landingAsSaved(name, text)).toBe(text);
    },
  );

  it.each(documentFiles(projectRoot).map((doc) => [doc.file, doc.collection]))(
    "%s: opening and saving it in the studio changes nothing",
    (file, collection) => {
      const text = readFileSync(join(projectRoot, file), "utf8");
      expect(documentAsSaved(collection, text)).toBe(text);
    },
  );
});
