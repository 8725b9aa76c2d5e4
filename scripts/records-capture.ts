/**
 * `npm run records:capture`: one capture of the site into the records store (lib/records/). Checks the store
 * first (a bucket without Object Lock, or one that cannot be reached, is refused before anything is
 * captured), asks the Time Stamp Authority again for the earlier captures still waiting for their token,
 * captures in a staging folder, verifies it, has the manifest's hash timestamped by the TSA when one is
 * configured (a TSA that cannot do it now leaves the capture "not yet certified", asked again at the
 * next run: lib/records/certify.ts), packages it as a WACZ signed and timestamped now (`capture.wacz`,
 * lib/records/wacz.ts), writes the capture into the store (the manifest last), and reads it
 * back: hashes, token and, on S3, every object's lock. Nothing is shown as complete that is not.
 *
 * Options: `--origin URL` (the deployed site, as it serves it; default: dist/ served by our own server),
 * `--kind deploy|scheduled` (default deploy), `--dist DIR`, `--out DIR` (a folder store, instead of
 * ARCHIVE_STORE). Environment: ARCHIVE_STORE (a folder, default archive/, or s3://bucket/prefix),
 * ARCHIVE_RETENTION_DAYS, ARCHIVE_TSA_URL with ARCHIVE_TSA_CA, ARCHIVE_PORT (the recording proxy's port),
 * ARCHIVE_WACZ_KEY (the firm's P-384 key, its PEM or a file holding it, that signs the capture's WACZ,
 * `capture.wacz`, stored with it).
 */
import type { KeyObject } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../lib/root.ts";
import { capture } from "../lib/records/capture.ts";
import { withSiteServer } from "../server/app.ts";
import { CAPTURE_WACZ, driftedPages, MANIFEST, type CaptureKind } from "../lib/records/manifest.ts";
import { folderSource, FolderStore, openStore, storeSource, StoreError, type ArchiveStore } from "../lib/records/store.ts";
import { loadTsaCa, requestTimestamp, TimestampError } from "../lib/records/timestamp.ts";
import { signingKeyFrom, writeCaptureWacz } from "../lib/records/wacz.ts";
import { certifyWaiting, stampStaged } from "../lib/records/certify.ts";
import { verifyCapture } from "../lib/records/verify.ts";

const { values } = parseArgs({
  options: { out: { type: "string" }, dist: { type: "string" }, origin: { type: "string" }, kind: { type: "string", default: "deploy" } },
});
/** Stops the run with one sentence (the staging folder is removed on the way out). */
class Refused extends Error {}
const fail = (message: string): never => {
  throw new Refused(message);
};

const staging = mkdtempSync(join(tmpdir(), "records-capture-"));
try {
  if (values.kind !== "deploy" && values.kind !== "scheduled") fail(`--kind must be deploy or scheduled, not "${values.kind}".`);
  const kind = values.kind as CaptureKind;
  // npm runs scripts in the project's folder; paths given are meant from where the command was typed.
  const here = process.env.INIT_CWD ?? process.cwd();
  const dist = values.dist ? resolve(here, values.dist) : join(projectRoot, "dist");
  let origin: string | undefined;
  try {
    origin = values.origin === undefined ? undefined : new URL(values.origin).origin;
  } catch {
    fail(`--origin must be a URL (https://www.example.com), not "${values.origin}".`);
  }
  const tsaUrl = process.env.ARCHIVE_TSA_URL || undefined;
  let tsaCa: string | undefined;
  try {
    tsaCa = loadTsaCa(process.env.ARCHIVE_TSA_CA);
  } catch (error) {
    fail((error as Error).message);
  }
  if (tsaUrl && !tsaCa)
    fail("ARCHIVE_TSA_URL is set but ARCHIVE_TSA_CA is not: without the TSA's CA certificate its tokens cannot be checked.");

  let waczKey: KeyObject | undefined;
  try {
    waczKey = signingKeyFrom(process.env.ARCHIVE_WACZ_KEY);
  } catch (error) {
    fail((error as Error).message);
  }

  const store: ArchiveStore = values.out
    ? new FolderStore(resolve(here, values.out))
    : await openStore(process.env.ARCHIVE_STORE, projectRoot);
  await store.check();
  if (tsaUrl) {
    const earlier = await certifyWaiting(store, tsaUrl, tsaCa);
    for (const { name, genTime, tsa } of earlier.certified)
      console.log(`records:capture: ${name}'s time is now certified by ${tsa ?? tsaUrl} (at ${genTime?.toISOString()})`);
    for (const { name, why } of earlier.waiting) console.log(`records:capture: ${name}'s time is still not certified: ${why}`);
  }
  console.log(`records:capture: capturing ${origin ?? "dist/ on our own server"} as a ${kind} capture into ${store.label}`);
  const port = Number(process.env.ARCHIVE_PORT ?? 0);
  const made = origin
    ? await capture({ dist, root: projectRoot, outRoot: staging, kind, origin, port })
    : await withSiteServer(dist, (own) => capture({ dist, root: projectRoot, outRoot: staging, kind, origin: own, ownBuild: true, port }));
  const staged = await verifyCapture(folderSource(made.folder));
  if (!staged.ok) fail(`the capture did not verify before storing; nothing was stored:\n${staged.problems.join("\n")}`);

  const stamped = tsaUrl ? await stampStaged(made.folder, tsaUrl, tsaCa) : {};
  if (stamped.check)
    console.log(`records:capture: timestamped by ${stamped.check.tsa ?? tsaUrl} at ${stamped.check.genTime?.toISOString()}`);
  if (stamped.pending)
    console.log(
      `records:capture: the Time Stamp Authority did not certify the capture's time now (${stamped.pending}); it is stored without it.`,
    );

  // The capture as a WACZ, stored and locked with it: signed and timestamped now, gathered by exports later.
  // The day's record is the capture itself: a WACZ that cannot be made is said, and the capture stored without it.
  try {
    const wacz = await writeCaptureWacz(made.folder, made.name, {
      ...(waczKey ? { key: waczKey } : {}),
      ...(tsaUrl && !stamped.pending ? { timestamp: (data: Uint8Array) => requestTimestamp(tsaUrl, data) } : {}),
      ...(tsaCa ? { tsaCa } : {}),
    });
    console.log(
      `records:capture: ${CAPTURE_WACZ} written (${(wacz.bytes / 1e6).toFixed(1)} MB), ${waczKey ? "signed" : "not signed: ARCHIVE_WACZ_KEY is not set"}` +
        (wacz.untimed ? `, without trusted time (${wacz.untimed})` : ""),
    );
  } catch (error) {
    rmSync(join(made.folder, CAPTURE_WACZ), { force: true });
    console.log(
      `records:capture: ${CAPTURE_WACZ} could not be written (${error instanceof Error ? error.message : error}); the capture is stored without it, and exports package it from its files.`,
    );
  }

  await store.write(made.name, made.folder, { onFile: (path) => console.log(`  ${made.name}/${path}`) });
  // Read back from the store itself: what is kept is what was captured, locked as it must be.
  const files = (await store.list(made.name)).get(made.name) ?? [];
  const lockedUntil = store.retentionDays ? new Date(Date.now() + (store.retentionDays - 1) * 86_400_000) : undefined;
  const kept = await verifyCapture(storeSource(store, made.name, files), {
    expectedManifestSha256: made.manifestSha256,
    tsaCa,
    lockedUntil,
  });
  if (!kept.ok) fail(`${made.name} as read back from ${store.label} does not verify:\n${kept.problems.join("\n")}`);

  const drifted = driftedPages(made.manifest);
  console.log(
    `records:capture: stored ${made.name} in ${store.label} in ${made.seconds.toFixed(1)} s: ${made.manifest.pages.length} pages, ` +
      `${made.records} WARC records, ${files.length} files, read back and verified` +
      (made.manifest.blockedRequests.length ? `; ${made.manifest.blockedRequests.length} third-party requests refused` : ""),
  );
  console.log(`records:capture: ${MANIFEST} sha256 ${made.manifestSha256}`);
  for (const line of kept.lines) console.log(`  ${line.ok ? "✓" : "✗"} ${line.label}: ${line.text}`);
  if (stamped.pending)
    console.log(
      `records:capture: ${made.name}'s time is not yet certified by the Time Stamp Authority; the next npm run records:capture asks for its token again.`,
    );
  if (made.manifest.uncommittedChanges)
    console.log("records:capture: the work tree had uncommitted changes; capture a clean commit for the record");
  if (drifted.length)
    console.log(
      `records:capture: the live text of ${drifted.map((p) => p.path).join(", ")} is not the approved text; the capture keeps it as served. ` +
        `npm run records:check -- --origin ${origin} shows the words.`,
    );
  // In GitHub Actions, the next steps read the capture's name and hash from here, and the job summary keeps them.
  if (process.env.GITHUB_OUTPUT)
    appendFileSync(process.env.GITHUB_OUTPUT, `capture=${made.name}\nmanifest-sha256=${made.manifestSha256}\nstore=${store.label}\n`);
  if (process.env.GITHUB_STEP_SUMMARY)
    appendFileSync(
      process.env.GITHUB_STEP_SUMMARY,
      [
        `### ${kind === "deploy" ? "Archive of the deployed site" : "Scheduled capture of the live site"}`,
        "",
        "| | |",
        "| --- | --- |",
        `| capture | \`${made.name}\` in \`${store.label}\` (${files.length} objects) |`,
        `| manifest.json sha256 | \`${made.manifestSha256}\` |`,
        ...kept.lines.map((l) => `| ${l.label} | ${l.ok ? "✓" : "✗"} ${l.text} |`),
        `| live text | ${drifted.length ? `✗ differs from the approved text on ${drifted.map((p) => p.path).join(", ")}` : "✓ the approved text"} |`,
        "",
      ].join("\n"),
    );
} catch (error) {
  // Refusals, the store's and the TSA's sentences are for people; anything else is a fault of the capture itself.
  const known = error instanceof Refused || error instanceof StoreError || error instanceof TimestampError;
  console.error(
    `records:capture: ${known ? (error as Error).message : `the capture failed: ${error instanceof Error ? error.message : error}`}`,
  );
  process.exitCode = 1;
} finally {
  rmSync(staging, { recursive: true, force: true });
}
