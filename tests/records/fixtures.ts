/**
 * The records suites' shared fixture (Vitest's globalSetup for the `records` project): the records
 * demo's store, made once per run (testing/demo/records.ts: two real captures of the built site in
 * Chromium, timestamped by a TSA on loopback, one of them of a drifted copy, each with the contact
 * form's provider recorded from its local stand-in, and derived days in March 2026, one altered and one
 * unfinished), instead of every file capturing the site again. Files read it through `recordsFixture()`
 * and work on copies of what they change.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    records: RecordsFixture;
  }
}

export default async function setup(project: TestProject) {
  requireBuild();
  const folder = mkdtempSync(join(tmpdir(), "records-fixture-"));
  const tsa = await startDemoTsa();
  try {
    // The contact form's provider answered from local files, as a capture of the live site records the real one.
    const demo = await buildRecordsDemo({ project: projectRoot, dist, folder, tsa, thirdParty: formProviderFetch });
    project.provide("records", { ...demo, tsaCaFile: join(folder, "tsa-ca.pem"), tsaUrl: tsa.url });
  } catch (error) {
    await tsa.stop();
    throw error;
  }
  // The TSA stays for the run: an export asks it for the time of its signature, under the captures' CA.
  return async () => {
    await tsa.stop();
    rmSync(folder, { recursive: true, force: true });
  };
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
