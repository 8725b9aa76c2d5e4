/**
 * The records suites' shared fixture (Vitest's globalSetup for the `records` project): the records
 * demo's store, made once per run (testing/demo/records.ts: two real captures of the built site in
 * Chromium, timestamped by a TSA on loopback, one of them of a drifted copy, each with the contact
 * form's provider recorded from its local stand-in, and derived days in March 2026, one altered and one
 * unfinished), instead of every file capturing the site again. Files read it through `recordsFixture()`
 * and work on copies of what they change.
 *
 * It is made beside the run's first files, not before them: Vitest starts no file until every global setup
 * has returned, and the demo's two captures (about 28 s, a little over one core) kept the run's start
 * waiting with a core idle. The setup starts making it and returns; `recordsFixture()` waits until it is
 * there (or fails with the reason it could not be made). The four files that read it come well after the
 * first in the run's order (longest first), so none waits in a full run.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { MANIFEST, parseManifest } from "../../lib/records/manifest.ts";
import { sha256Hex } from "../../lib/hash.ts";
import { buildRecordsDemo, type RecordsDemo } from "../../testing/demo/records.ts";
import { startDemoTsa } from "../../testing/demo/tsa.ts";
import { dist, projectRoot, requireBuild } from "../server/support.ts";
import { formProviderFetch } from "../../testing/form-provider.ts";

export interface RecordsFixture extends RecordsDemo {
  /** The demo TSA's CA certificate, which issued the captures' tokens. */
  tsaCaFile: string;
  /** The same TSA, on loopback until the run ends (an export's signature is timestamped by it). */
  tsaUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder the fixture is made in: MADE appears in it once it is there, FAILED if it could not be made. */
    recordsFolder: string;
  }
}

const MADE = "fixture.json";
const FAILED = "fixture-failed.txt";

/** Written whole or not at all: a reader never sees half of it. */
function writeWhole(path: string, text: string) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

export default async function setup(project: TestProject) {
  requireBuild();
  const folder = mkdtempSync(join(tmpdir(), "records-fixture-"));
  const tsa = await startDemoTsa();
  // The contact form's provider answered from local files, as a capture of the live site records the real one.
  const making = buildRecordsDemo({ project: projectRoot, dist, folder, tsa, thirdParty: formProviderFetch }).then(
    (demo) => writeWhole(join(folder, MADE), JSON.stringify({ ...demo, tsaCaFile: join(folder, "tsa-ca.pem"), tsaUrl: tsa.url })),
    (error: unknown) => writeWhole(join(folder, FAILED), error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
  project.provide("recordsFolder", folder);
  // The TSA stays for the run: an export asks it for the time of its signature, under the captures' CA.
  return async () => {
    await making;
    await tsa.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}

/** The run's fixture, once made (the hook's ceiling bounds the wait); throws why it could not be made. */
export async function recordsFixture(): Promise<RecordsFixture> {
  const folder = inject("recordsFolder");
  const [made, failed] = [join(folder, MADE), join(folder, FAILED)];
  const settled = () => existsSync(made) || existsSync(failed);
  if (!settled()) {
    await new Promise<void>((resolve) => {
      const watcher = watch(folder, () => {
        if (!settled()) return;
        watcher.close();
        resolve();
      });
      // Made between the first look and the watch.
      if (settled()) {
        watcher.close();
        resolve();
      }
    });
  }
  if (existsSync(failed)) throw new Error(`the records fixture could not be made:\n${readFileSync(failed, "utf8")}`);
  return JSON.parse(readFileSync(made, "utf8")) as RecordsFixture;
}

/** A copy of the demo's store to change (derived captures share files by hard links: a copy never touches the original). */
export function storeCopy(fixture: RecordsFixture, into: string): string {
  const copy = join(into, "store");
  cpSync(fixture.store, copy, { recursive: true });
  return copy;
}

/** One of the real captures as `capture()` returned it, copied into `into` (stamped by the demo TSA). */
export function realCapture(fixture: RecordsFixture, which: "deployed" | "drifted", into = mkdtempSync(join(tmpdir(), "records-real-"))) {
  const name = fixture.names[which];
  const folder = join(into, name);
  cpSync(join(fixture.store, name), folder, { recursive: true });
  const bytes = readFileSync(join(folder, MANIFEST));
  return { name, folder, manifest: parseManifest(bytes), manifestSha256: sha256Hex(bytes) };
}
