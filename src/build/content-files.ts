/**
 * The content files as tooling reads them from disk (the approval integration, scripts, benches and
 * tests), outside Astro: the same folders, front matter and schemas as src/content.config.ts.
 * Pages read them through `astro:content` instead.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { ZodType } from "zod";
import { DOCUMENT_COLLECTIONS } from "../content/schemas/files.ts";
import { inSiteOrder, type DocumentCollection, type DocumentRef } from "./documents.ts";
import { markdownFileProblems } from "./markdown/content-rules.ts";

export type DocumentFile = DocumentRef;

/** The YAML front matter of a Markdown source, parsed; undefined when it has none. */
export function frontMatterOf(source: string): unknown {
  const block = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(source);
  return block ? parse(block[1]!) : undefined;
}

/** The YAML front matter of a Markdown file, validated by `schema`; throws naming the file and the field. */
function readFrontMatter<T>(root: string, file: string, schema: ZodType<T>): T {
  const data = frontMatterOf(readFileSync(join(root, file), "utf8"));
  if (data === undefined) throw new Error(`${file}: no front matter (a block between "---" lines at the top)`);
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${file}: field "${issue.path.map(String).join(".") || "(front matter)"}": ${issue.message}`);
  }
  return result.data;
}

/** Every document page of the project at `root`, checked and in site order (src/build/documents.ts). */
export function documentFiles(root: string): DocumentFile[] {
  const documents = (Object.keys(DOCUMENT_COLLECTIONS) as DocumentCollection[]).flatMap((collection) =>
    readdirSync(join(root, DOCUMENT_COLLECTIONS[collection].folder))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => {
        const file = `${DOCUMENT_COLLECTIONS[collection].folder}/${name}`;
        const { title, order, withdrawn } = readFrontMatter<{ title: string; order: number; withdrawn?: Date }>(
          root,
          file,
          DOCUMENT_COLLECTIONS[collection].schema,
        );
        return { slug: name.slice(0, -".md".length), collection, file, title, order, withdrawn };
      }),
  );
  return inSiteOrder(documents);
}

/**
 * Every sentence of src/build/markdown/content-rules.ts for the document files of the project at `root`
 * (raw HTML, unsafe link targets and image sources), file by file: the build refuses them all at once
 * before it renders anything, as the studio refuses a save.
 */
export function contentFileProblems(root: string): string[] {
  return Object.values(DOCUMENT_COLLECTIONS).flatMap(({ folder }) =>
    readdirSync(join(root, folder))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .flatMap((name) => markdownFileProblems(readFileSync(join(root, folder, name), "utf8"), `${folder}/${name}`)),
  );
}
