/**
 * `npm run bench:records`: the records at three years' size. One real capture of the built site, then a
 * folder store of 1,100 captures derived from it (testing/records/derive.ts: a daily capture for 1,096 days
 * and a deploy capture every 274 days), served by the loopback studio (`node studio/index.ts`, a process
 * of its own, on a throw-away clone). Measured:
 * - the one real capture, as `npm run records:capture` makes it (budget ≤ 60 s; a timed test asserted it before);
 * then from here, over HTTP:
 * - the index built from the store at the first look (every capture verified from its bytes; reported);
 * - the timeline's time to first byte, the index warm (budget ≤ 1 s), median of 5;
 * - "as of" a moment, the whole answer (≤ 200 ms), median of 5 moments;
 * - an export of 30 captures (30 days), until the zip is downloaded (≤ 60 s), and the zip verified.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capture } from "../lib/records/capture.ts";
import { withSiteServer } from "../server/app.ts";
import { deriveCapture } from "../testing/records/derive.ts";
import { verifyExport } from "../lib/records/export.ts";
import { osFreePort } from "../lib/ports.ts";
import { projectRoot } from "../lib/root.ts";
import { throwawayProject } from "../testing/studio/trial.ts";
import { recordsBudget } from "./budgets.ts";

const COUNT = Number(process.env.BENCH_RECORDS_CAPTURES ?? 1100);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const DAY = 86_400_000;

/** Milliseconds to the first byte and to the last, of a GET or a POST. */
function timed(url: string, options: { method?: string; body?: string; headers?: Record<string, string>; save?: string } = {}) {
  return new Promise<{ status: number; firstByteMs: number; totalMs: number; bytes: number }>((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = 0;
    const chunks: Buffer[] = [];
    const req = request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      firstByteMs = performance.now() - started;
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        if (options.save) writeFileSync(options.save, body);
        resolve({ status: res.statusCode ?? 0, firstByteMs, totalMs: performance.now() - started, bytes: body.length });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

const scratch = mkdtempSync(join(tmpdir(), "bench-records-"));
const store = join(scratch, "store");
const { project, remove } = throwawayProject();
let studio: ReturnType<typeof spawn> | undefined;
try {
  console.log("bench:records: one real capture of the built site…");
  const dist = join(projectRoot, "dist");
  const captureStarted = performance.now();
  const real = await withSiteServer(dist, (origin) =>
    capture({ dist, root: projectRoot, outRoot: join(scratch, "real"), kind: "scheduled", origin, ownBuild: true }),
  );
  const captureMs = performance.now() - captureStarted;
  let started = performance.now();
  const first = Date.UTC(2023, 10, 26, 6, 17);
  for (let i = 0; i < COUNT; i++) {
    const daily = i < 1096;
    const at = daily ? new Date(first + i * DAY) : new Date(first + (i - 1096 + 1) * 274 * DAY + 5 * 3_600_000);
    deriveCapture(real.folder, store, { at, kind: daily ? "scheduled" : "deploy" });
  }
  const deriveSeconds = (performance.now() - started) / 1000;
  console.log(`bench:records: ${COUNT} captures derived in ${deriveSeconds.toFixed(1)} s`);

  const port = await osFreePort();
  studio = spawn(process.execPath, ["studio/index.ts"], {
    cwd: project,
    env: { ...process.env, PORT: String(port), ARCHIVE_STORE: store, STUDIO_MODE: "loopback" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    studio!.stdout!.on("data", (chunk: Buffer) => (String(chunk).includes("Content studio:") ? resolve() : undefined));
    studio!.once("exit", (code) => reject(new Error(`the studio stopped (${code}) before it listened`)));
  });
  const base = `http://127.0.0.1:${port}`;
  started = performance.now();
  // The studio builds the index as it starts; until done, the records answer 503 with how far it is.
  for (let answer = await timed(`${base}/admin/records`); answer.status !== 200; answer = await timed(`${base}/admin/records`)) {
    if (answer.status !== 503) throw new Error(`the timeline answered ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const coldSeconds = (performance.now() - started) / 1000;
  console.log(`bench:records: index built at the first look in ${coldSeconds.toFixed(1)} s (every capture verified from its bytes)`);

  const timeline: number[] = [];
  for (let i = 0; i < 5; i++) timeline.push((await timed(`${base}/admin/records`)).firstByteMs);
  const asOf: number[] = [];
  for (let i = 0; i < 5; i++) {
    const at = new Date(first + (137 + i * 211) * DAY + 12 * 3_600_000).toISOString().slice(0, 16);
    const answer = await timed(`${base}/admin/records?at=${at}`);
    if (answer.status !== 200) throw new Error(`as of ${at}: ${answer.status}`);
    asOf.push(answer.totalMs);
  }

  const session = (await (await fetch(`${base}/admin/session`)).json()) as { csrf: string };
  const from = new Date(first + 400 * DAY).toISOString().slice(0, 10);
  // Days 400 to 428: the capture in force as the first begins (day 399's) and the 29 made on them.
  const to = new Date(first + 428 * DAY).toISOString().slice(0, 10);
  const zip = join(scratch, "export.zip");
  const made = await timed(`${base}/admin/records/export`, {
    method: "POST",
    body: new URLSearchParams({ _csrf: session.csrf, from, to, dates: "" }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "Sec-Fetch-Site": "same-origin" },
    save: zip,
  });
  if (made.status !== 200) throw new Error(`the export answered ${made.status}`);
  const checked = await verifyExport(zip, {});
  const capturesInZip = checked.lines.filter((l) => l.label.startsWith("Capture ")).length;

  const figures = [
    ["one capture of the built site (as `npm run records:capture` makes it)", captureMs, recordsBudget.captureMs],
    ["timeline, time to first byte (median of 5)", median(timeline), recordsBudget.timelineFirstByteMs],
    ["as of a moment, whole answer (median of 5)", median(asOf), recordsBudget.asOfMs],
    [`export of ${capturesInZip} captures (${from} to ${to}), downloaded`, made.totalMs, recordsBudget.exportMs],
  ] as const;
  console.log(`\nRecords of ${COUNT} captures (folder store, loopback studio):`);
  let failed = 0;
  for (const [label, ms, budget] of figures) {
    const ok = ms <= budget;
    if (!ok) failed++;
    console.log(`  ${ok ? "✓" : "✗"} ${label}: ${Math.round(ms)} ms (budget ${budget} ms)`);
  }
  console.log(`  timeline runs: ${timeline.map(Math.round).join(", ")} ms; as-of runs: ${asOf.map(Math.round).join(", ")} ms`);
  console.log(`  first look (index built): ${coldSeconds.toFixed(1)} s; derive: ${deriveSeconds.toFixed(1)} s`);
  console.log(
    `  export: ${(statSync(zip).size / 1_048_576).toFixed(1)} MiB, records:verify ${checked.ok ? "accepts it" : `refuses it: ${checked.problems[0]}`}`,
  );
  if (capturesInZip !== 30 || !checked.ok) failed++;
  process.exitCode = failed ? 1 : 0;
} finally {
  studio?.kill("SIGTERM");
  remove();
  rmSync(scratch, { recursive: true, force: true });
}
