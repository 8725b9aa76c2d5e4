/**
 * The preview pane's two halves, made when the studio starts: the site's stylesheet (Tailwind compiled
 * from src/styles/ as the build compiles it, the legal and drawing styles with it), and the renderer of
 * the site's components (studio/preview/render.tsx, bundled for Node by esbuild into .studio/preview/).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { compile, optimize } from "@tailwindcss/node";
import { Scanner } from "@tailwindcss/oxide";
import type { PreviewAnswer } from "./render.tsx";
import { isRunning } from "../../lib/processes.ts";
import { readLedger } from "../../lib/approval/files.ts";
import { policyTimeZone, POLICY_FILE, reviewDays } from "../../lib/approval/reviews.ts";

export type { PreviewAnswer };

/** What the admin page sends: the entry being edited, as Decap holds it. */
export interface PreviewRequest {
  /** `landing`, `legal` or `disclosures`. */
  collection: string;
  /** The entry: in `landing` the file's name (hero, features…), in the others the document's slug. */
  slug?: string;
  data: Record<string, unknown>;
}

export interface Preview {
  css: string;
  render(request: PreviewRequest): Promise<PreviewAnswer>;
}

type Renderer = typeof import("./render.tsx");

/** The site's CSS: global.css (with Tailwind's utilities for the classes in src/ and in render.tsx), then the drawing's and the documents'. */
async function siteCss(root: string): Promise<string> {
  const styles = join(root, "src", "styles");
  const input = [
    `@import "./global.css";`,
    `@import "./settlement.css";`,
    `@import "./legal.css";`,
    `@source "../../studio/preview/render.tsx";`,
  ].join("\n");
  const compiler = await compile(input, { base: styles, onDependency: () => undefined });
  // What @tailwindcss/vite scans: the stylesheet's source(…) folder (src/, from global.css), less its @source not rules.
  const scanRoot = compiler.root;
  const sources = [
    ...(scanRoot === "none"
      ? []
      : scanRoot === null
        ? [{ base: styles, pattern: "**/*", negated: false }]
        : [{ ...scanRoot, negated: false }]),
    ...compiler.sources,
  ];
  return optimize(compiler.build(new Scanner({ sources }).scan()), { minify: false }).code;
}

async function renderer(root: string): Promise<Renderer> {
  const folder = join(root, ".studio", "preview");
  mkdirSync(folder, { recursive: true });
  // A studio stopped mid-start (killed) leaves its bundle behind: remove those of processes no longer running.
  for (const name of readdirSync(folder)) {
    const pid = Number(/^render-(\d+)\.mjs$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !isRunning(pid)) rmSync(join(folder, name), { force: true });
  }
  const outfile = join(folder, `render-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, "studio", "preview", "render.tsx")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    // React, Zod and the Markdown processor come from node_modules as the build's do; the site's code is bundled.
    packages: "external",
    tsconfig: join(root, "tsconfig.json"),
    jsx: "automatic",
    loader: { ".css": "empty" },
    logLevel: "silent",
  });
  try {
    return (await import(`${pathToFileURL(outfile).href}?v=${Date.now()}`)) as Renderer;
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** The day the project's ledger last records a review of a page, in the policy's zone: its "Last reviewed" (decision 0056). */
function reviewDayOf(root: string, page: string): string | undefined {
  try {
    const policy = join(root, POLICY_FILE);
    const zone = policyTimeZone(existsSync(policy) ? readFileSync(policy, "utf8") : undefined);
    return reviewDays(readLedger(root), [page], zone)[page];
  } catch {
    // A ledger that does not parse: the build says so; the pane shows "Last updated" as the date.
    return undefined;
  }
}

/** Both halves; a failure says what failed, and the admin page shows it in the preview pane. */
async function createPreview(root: string): Promise<Preview> {
  const [css, render] = await Promise.all([siteCss(root), renderer(root)]);
  return {
    css,
    render: async (request) => {
      const { collection, slug, data } = (request ?? {}) as Partial<PreviewRequest>;
      if (typeof collection !== "string" || !data || typeof data !== "object") return { problems: ["The request names no entry."] };
      if (collection === "landing") return render.renderLanding(slug ?? "", data);
      const { body, ...front } = data;
      return render.renderDocument(
        collection,
        slug ?? "",
        front,
        typeof body === "string" ? body : "",
        reviewDayOf(root, `/${slug ?? ""}`),
      );
    },
  };
}

const made = new Map<string, Promise<Preview>>();

/** The project's preview, made once per studio (made again on the next request after a failure). */
export function sitePreview(root: string): Promise<Preview> {
  let preview = made.get(root);
  if (!preview) {
    const making = createPreview(root);
    making.catch(() => made.get(root) === making && made.delete(root));
    made.set(root, (preview = making));
  }
  return preview;
}
