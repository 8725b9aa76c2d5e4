/**
 * `npm run bench:studio`: the content studio's figures, on a throw-away clone of this project.
 * - start: `npm run studio` until it prints its URL (the first start clones .studio/repo; later ones reuse it);
 * - approvals: GET /admin/approvals for one entry in review, the preview build of its branch included
 *   (a new commit each run, so no run reads a cached build);
 * - the preview pane: from the studio's URL to its first drawing of the hero (the site's stylesheet and
 *   renderer are made as it starts), then one more drawing (what each pause in typing costs);
 * - the admin bundle: Decap's prebuilt decap-cms.js, raw and brotli, and the chunks it may load.
 * Reports each run and the medians. Figures, not budgets: the studio runs on an editor's machine.
 */
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { decapDist } from "../studio/http/admin-assets.ts";
import { throwawayProject } from "../studio/trial.ts";
import { parse } from "yaml";

const runs = Number(process.env.BENCH_STUDIO_RUNS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

const { project, remove } = throwawayProject();

/** Starts the studio as `npm run studio` does; resolves when it prints its URL. */
function startStudio(): Promise<{ ms: number; origin: string; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["studio/index.ts"], {
    cwd: project,
    env: { ...process.env, PORT: "0" },
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url)
        resolve({
          ms: performance.now() - started,
          origin: url,
          stop: () => new Promise<void>((done) => (child.once("exit", () => done()), process.kill(-child.pid!, "SIGTERM"))),
        });
    });
    child.once("exit", (code) => reject(new Error(`the studio stopped (exit ${code}): ${out}`)));
  });
}

/** An entry in review made without the browser: one commit on cms/landing/hero and Decap's status label. */
function entryInReview(run: number) {
  const repo = join(project, ".studio", "repo");
  git(repo, "checkout", "--quiet", "-B", "cms/landing/hero", "main");
  const file = join(repo, "src/content/landing/hero.yaml");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(/^headline: .*$/m, `headline: The trusted leader in digital asset trading, take ${run}`),
  );
  git(repo, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "--quiet", "-am", `bench ${run}`);
  git(repo, "checkout", "--quiet", "main");
  git(repo, "config", "branch.cms/landing/hero.description", "decap-cms/pending_review");
}

const starts: number[] = [];
const views: number[] = [];
const firstDrawings: number[] = [];
const drawings: number[] = [];

/** Asks the studio to draw the hero as the admin page does; the milliseconds it took. */
async function drawHero(origin: string): Promise<number> {
  const data = parse(readFileSync(join(project, "src/content/landing/hero.yaml"), "utf8")) as unknown;
  const before = performance.now();
  const answer = (await (
    await fetch(`${origin}/admin/preview`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify({ collection: "landing", slug: "hero", data }),
    })
  ).json()) as { html?: string; problems?: string[] };
  if (!answer.html?.includes('id="introduction"')) throw new Error(`the preview did not draw the hero: ${JSON.stringify(answer)}`);
  return performance.now() - before;
}
try {
  for (let run = 1; run <= runs; run++) {
    const studio = await startStudio();
    starts.push(studio.ms);
    firstDrawings.push(await drawHero(studio.origin));
    drawings.push(await drawHero(studio.origin));
    entryInReview(run);
    const before = performance.now();
    const html = await (await fetch(`${studio.origin}/admin/approvals`)).text();
    views.push(performance.now() - before);
    if (!html.includes('data-page="/"')) throw new Error("the approvals view did not show the entry's page");
    await studio.stop();
    console.log(
      `run ${run}: start ${Math.round(studio.ms)} ms${run === 1 ? " (first start: clones .studio/repo)" : ""}, first preview ${Math.round(firstDrawings.at(-1)!)} ms after it, next ${Math.round(drawings.at(-1)!)} ms, approvals view ${Math.round(views.at(-1)!)} ms`,
    );
  }
} finally {
  remove();
}

const dist = decapDist();
const bundle = readFileSync(join(dist, "decap-cms.js"));
const chunks = readdirSync(dist).filter((name) => /^\d+\.decap-cms\.js$/.test(name));
const chunkBytes = chunks.reduce((sum, name) => sum + statSync(join(dist, name)).size, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(
  `\nstudio start: median ${Math.round(median(starts.slice(1).length ? starts.slice(1) : starts))} ms (after the first; first ${Math.round(starts[0]!)} ms)`,
);
console.log(
  `preview pane: first drawing median ${Math.round(median(firstDrawings))} ms after the studio's URL (stylesheet and renderer made), each later drawing median ${Math.round(median(drawings))} ms`,
);
console.log(`approvals view of one entry, branch build included: median ${Math.round(median(views))} ms over ${views.length} runs`);
console.log(
  `admin bundle: decap-cms.js ${kb(bundle.length)} raw, ${kb(brotliCompressSync(bundle).length)} brotli; ${chunks.length} chunks loaded on demand, ${kb(chunkBytes)} raw in all`,
);
