/**
 * The preview builds' worker (decision 0054): one long-lived process that runs `astro build` for each
 * build the studio asks for, over its IPC channel, so Astro, Vite and their plugins are loaded and
 * compiled once instead of once per build. A build in a warm worker takes about 2 s where a process of
 * its own takes 5–6 s; the pages are the same byte for byte (tests/studio/builds-reuse.test.ts, "the build worker").
 *
 * Each build is in a folder of its own (a `git archive` of its revision, builds.ts), with the same
 * environment `scripts/astro.ts build` gives: production, telemetry off, `SITE_OUT_DIR`. One build at a
 * time. The worker leaves after a failed build (nothing of it is kept for the next) and once it holds
 * more memory than MEMORY_LIMIT after a build; the studio starts another for the next build.
 *
 * Messages: in `{ build: folder }`; out `{ built: folder }` or `{ failed: folder, error }`, with `leaving: true`
 * when the worker ends after it: whoever asked then sends the next build to a new worker, never to this
 * one while it ends (its exit reaches the parent some moments after the answer).
 */
import { build } from "astro";

/** Past this resident size after a build (each keeps a little: 20–100 MB), the worker leaves; the next build starts a new one. */
const MEMORY_LIMIT = 1_500_000_000;

export interface BuildRequest {
  build: string;
  outDir: string;
}
export type BuildAnswer = ({ built: string } | { failed: string; error: string }) & { leaving?: true };

const home = process.cwd();
process.env.ASTRO_TELEMETRY_DISABLED = "1";
// Started from a test runner, NODE_ENV would be "test", and React's development build would ship.
process.env.NODE_ENV = "production";

const send = (answer: BuildAnswer) => new Promise<void>((done) => process.send!(answer, () => done()));

process.on("message", (request: BuildRequest) => {
  void (async () => {
    let answer: BuildAnswer;
    try {
      process.chdir(request.build);
      process.env.SITE_OUT_DIR = request.outDir;
      // By its real path, as a process started in it sees it (the folder may be reached through a link).
      await build({ root: process.cwd(), configFile: "astro.preview.config.mjs" });
      answer = { built: request.build };
    } catch (error) {
      answer = { failed: request.build, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    } finally {
      // Not left in a build's folder, which is moved or removed next.
      process.chdir(home);
    }
    const leaving = "failed" in answer || process.memoryUsage().rss > MEMORY_LIMIT;
    await send(leaving ? { ...answer, leaving } : answer);
    if (leaving) process.exit(0);
    (globalThis as { gc?: () => void }).gc?.();
  })();
});
process.on("disconnect", () => process.exit(0));
