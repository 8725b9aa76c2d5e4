/**
 * The preview pane's pages are the site's: the studio renders an entry with the site's own components,
 * Markdown processor and stylesheet, so an unchanged file previews as the built page shows it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildIsCurrent, outDir } from "../../scripts/build-inputs.ts";
import { projectRoot } from "../../lib/root.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { LANDING_FILES, LANDING_FOLDER } from "../../src/content/schemas/files.ts";
import { sitePreview, type Preview } from "../../studio/preview/index.ts";

let preview: Preview;
const built = (page: string) => readFileSync(join(outDir, page), "utf8");
const landing = (name: keyof typeof LANDING_FILES) =>
  parse(readFileSync(join(projectRoot, LANDING_FOLDER, LANDING_FILES[name].file), "utf8")) as Record<string, unknown>;

beforeAll(async () => {
  // `npm test` builds first; run `npm run build` before `vitest run` on its own.
  if (!buildIsCurrent()) throw new Error("dist/ is missing or stale: run `npm run build` first");
  preview = await sitePreview(projectRoot);
}, 60_000);

async function drawn(request: Parameters<Preview["render"]>[0]): Promise<string> {
  const answer = await preview.render(request);
  if (!("html" in answer)) throw new Error(`refused: ${answer.problems.join("; ")}`);
  return answer.html;
}

describe("the preview of an unchanged file is the built page", () => {
  it.each(documentFiles(projectRoot).map((doc) => [doc.file, doc] as const))("%s: the whole document, byte for byte", async (_, doc) => {
    const [, front, body] = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(readFileSync(join(projectRoot, doc.file), "utf8"))!;
    const html = await drawn({ collection: doc.collection, slug: doc.slug, data: { ...(parse(front!) as object), body } });
    const page = built(`${doc.slug}.html`);
    expect(html.startsWith('<article class="legal')).toBe(true);
    expect(page.slice(page.indexOf("<article"), page.indexOf("</article>") + "</article>".length)).toBe(html);
  });

  it.each([
    ["hero", "introduction"],
    ["industries", "industries"],
    ["whyUs", "why-us"],
  ] as const)("the landing page's %s section, byte for byte", async (name, id) => {
    const html = await drawn({ collection: "landing", slug: name, data: landing(name) });
    const page = built("index.html");
    const start = page.indexOf(`<section id="${id}"`);
    expect(start).toBeGreaterThan(0);
    expect(page.slice(start, start + html.length)).toBe(html);
  });

  it("the sections with islands draw the islands' first paint (the highlights, the form's placeholder, the popup)", async () => {
    const features = await drawn({ collection: "landing", slug: "features", data: landing("features") });
    for (const highlight of landing("features").highlights as Array<{ title: string }>) expect(features).toContain(highlight.title);
    const contact = await drawn({ collection: "landing", slug: "contact", data: landing("contact") });
    expect(contact).toContain(String(landing("contact").placeholderText));
    const popup = await drawn({ collection: "landing", slug: "popup", data: landing("popup") });
    expect(popup).toContain('role="dialog"');
    expect(popup).toContain(String(landing("popup").heading));
  });

  it("the status dot's words, one for each state it can be in", async () => {
    const html = await drawn({ collection: "landing", slug: "status", data: landing("status") });
    const said = [...html.matchAll(/<dd[^>]*>([^<]*)<\/dd>/g)].map((match) =>
      match[1]!.replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&"),
    );
    const copy = landing("status") as Record<string, string>;
    expect(said).toHaveLength(4);
    expect(new Set(said).size).toBe(4);
    expect(said[0]).toBe(copy.unconfigured);
    for (const [i, key] of [
      [1, "checking"],
      [2, "reported"],
      [3, "unavailable"],
    ] as const)
      expect(said[i]).toContain(copy[key]!.split("{")[0]!);
  });
});

describe("the preview's stylesheet is the site's", () => {
  /** Class names the built page uses that its own stylesheet styles. */
  function styledClasses(page: string): string[] {
    const html = built(page);
    const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join("\n");
    const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(/\s+/)));
    return [...classes].filter((name) => css.includes(`.${CSS.escape(name)}`));
  }
  const CSS = { escape: (name: string) => name.replace(/[^\w-]/g, (char) => `\\${char}`) };

  it.each(["index.html", "privacy-policy.html", "risk-disclosures.html"])(
    "every class %s is styled by is styled in the preview",
    (page) => {
      const styled = styledClasses(page);
      expect(styled.length).toBeGreaterThan(40);
      expect(styled.filter((name) => !preview.css.includes(`.${CSS.escape(name)}`))).toEqual([]);
    },
  );

  it("carries the documents' typography and the drawing's styles", () => {
    expect(preview.css).toMatch(/\.prose-legal h2\s*\{[^}]*font-size:\s*1\.375rem/);
    expect(preview.css).toContain(".legal-toc");
    expect(preview.css).toContain(".hero-grid");
  });
});

describe("copy the build would refuse is named, not drawn", () => {
  it("an empty headline", async () => {
    const answer = await preview.render({ collection: "landing", slug: "hero", data: { ...landing("hero"), headline: " " } });
    expect(answer).toEqual({ problems: [expect.stringMatching(/^headline: /)] });
  });

  it("a fourth value card", async () => {
    const cards = landing("hero").valueCards as unknown[];
    const answer = await preview.render({
      collection: "landing",
      slug: "hero",
      data: { ...landing("hero"), valueCards: [...cards, cards[0]] },
    });
    expect(answer).toEqual({ problems: [expect.stringMatching(/^valueCards: /)] });
  });

  it("a document without its date, and a request that names no entry", async () => {
    const doc = documentFiles(projectRoot)[0]!;
    expect(await preview.render({ collection: doc.collection, slug: doc.slug, data: { title: "T", body: "" } })).toEqual({
      problems: expect.arrayContaining([expect.stringMatching(/^lastUpdated: /)]),
    });
    expect(await preview.render({ collection: "nope", slug: "x", data: {} })).toEqual({
      problems: ['no document collection named "nope"'],
    });
    expect(await preview.render({ collection: "landing", slug: "__proto__", data: {} })).toEqual({
      problems: ['no landing file named "__proto__"'],
    });
    expect(await preview.render(JSON.parse('{"collection":"landing"}'))).toEqual({ problems: ["The request names no entry."] });
    expect(await preview.render(JSON.parse("null"))).toEqual({ problems: ["The request names no entry."] });
  });
});
