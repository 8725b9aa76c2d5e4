/**
 * A records store in every state a compliance officer should recognise, for `npm run records:demo` and
 * the records' tests. Two real captures of the built site, each timestamped by the demo's TSA and stored
 * with its WACZ (signed with a key made for the demo): one as deployed, and one of a copy of the site
 * served with a sentence of the Privacy Policy changed (the live site drifted from the approved text).
 * Around them, DERIVED captures on days in March 2026 (copies of the first, testing/records/derive.ts:
 * fictional times, no tokens, no WACZ), of which one has a PDF altered after it was stored, one never
 * finished (no manifest), and one is a copy of the drifted capture. These are demonstration records,
 * never the firm's.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSiteServer } from "../../server/app.ts";
import { capture, type Capture } from "../../lib/records/capture.ts";
import { withSiteServer } from "../../server/app.ts";
import { deriveCapture } from "../records/derive.ts";
import { MANIFEST, TIMESTAMP_TOKEN } from "../../lib/records/manifest.ts";
import type { ThirdPartyFetch } from "../../lib/records/recording.ts";
import { FolderStore } from "../../lib/records/store.ts";
import { requestTimestamp } from "../../lib/records/timestamp.ts";
import { writeCaptureWacz } from "../../lib/records/wacz.ts";
import type { DemoTsa } from "./tsa.ts";

/** The words the drifted copy of the site says instead of the approved ones. */
export const DRIFT = { page: "/privacy-policy", from: "Privacy Policy", to: "Privacy Policy (revised)" };

export interface RecordsDemo {
  store: string;
  /** The demo's WACZ signing key (PEM, EC P-384), made for the demo: never a key of the firm's. */
  waczKeyFile: string;
  /** The capture names by what they show. */
  names: { deployed: string; drifted: string; derived: string[]; tampered: string; incomplete: string; derivedDrift: string };
  /** The file altered in the tampered capture. */
  tamperedFile: string;
}

/**
 * A copy of the build with the Privacy Policy's heading changed, served by our own server on `port`: the
 * deployed capture's address, so that the two captures are of one site at one address on two dates, as
 * the daily captures of the live site are (the port was just freed by that capture: taken meanwhile by
 * another process, it is asked for again, for up to 5 s).
 */
async function driftedSite(dist: string, scratch: string, port: number) {
  const copy = join(scratch, "drifted-site");
  cpSync(dist, copy, { recursive: true });
  const file = join(copy, `${DRIFT.page.slice(1)}.html`);
  writeFileSync(file, readFileSync(file, "utf8").replace(`>${DRIFT.from}<`, `>${DRIFT.to}<`));
  // The server prefers precompressed copies: without them it serves the edited page.
  for (const suffix of [".br", ".gz"]) rmSync(`${file}${suffix}`, { force: true });
  const server = createSiteServer({ root: copy });
  for (let tries = 1; ; tries++) {
    const taken = await new Promise<boolean>((done, fail) => {
      const refused = (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" && tries < 50 ? done(true) : fail(error));
      server.once("error", refused);
      server.listen(port, "127.0.0.1", () => (server.off("error", refused), done(false)));
    });
    if (!taken) break;
    await new Promise((next) => setTimeout(next, 100));
  }
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(done)) };
}

/** As `npm run records:capture` finishes a capture: its manifest's token, then its WACZ, signed with the demo's key and timestamped. */
async function stamp(made: Capture, tsa: DemoTsa | undefined, key: KeyObject) {
  if (tsa) writeFileSync(join(made.folder, TIMESTAMP_TOKEN), await requestTimestamp(tsa.url, readFileSync(join(made.folder, MANIFEST))));
  await writeCaptureWacz(made.folder, made.name, {
    key,
    ...(tsa ? { timestamp: (data: Uint8Array) => requestTimestamp(tsa.url, data), tsaCa: readFileSync(tsa.caFile, "utf8") } : {}),
  });
}

const at = (iso: string) => new Date(iso);

export async function buildRecordsDemo(options: {
  project: string;
  dist: string;
  folder: string;
  tsa?: DemoTsa;
  say?(text: string): void;
  /** The third parties' answers (the contact form's provider), recorded in both real captures; refused without it. */
  thirdParty?: ThirdPartyFetch;
}) {
  const say = options.say ?? (() => undefined);
  const storeFolder = join(options.folder, "store");
  rmSync(storeFolder, { recursive: true, force: true });
  mkdirSync(storeFolder, { recursive: true });
  const store = new FolderStore(storeFolder);
  const scratch = mkdtempSync(join(tmpdir(), "records-demo-"));
  // A key made here for the demo's WACZs, kept beside its store (ARCHIVE_WACZ_KEY for the demo's exports).
  const { privateKey: waczKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
  const waczKeyFile = join(options.folder, "wacz-key.pem");
  writeFileSync(waczKeyFile, waczKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  try {
    say("Capturing the built site as deployed (real, in Chromium)…");
    const { thirdParty } = options;
    const deployed = await withSiteServer(options.dist, (origin) =>
      capture({
        dist: options.dist,
        root: options.project,
        outRoot: join(scratch, "a"),
        kind: "deploy",
        origin,
        ownBuild: true,
        thirdParty,
      }),
    );
    await stamp(deployed, options.tsa, waczKey);
    say("Capturing a copy of the site whose Privacy Policy heading differs from the approved text (real)…");
    const site = await driftedSite(options.dist, scratch, Number(new URL(deployed.manifest.origin).port));
    let drifted: Capture;
    try {
      drifted = await capture({
        dist: options.dist,
        root: options.project,
        outRoot: join(scratch, "b"),
        kind: "scheduled",
        origin: site.origin,
        thirdParty,
      });
    } finally {
      await site.close();
    }
    await stamp(drifted, options.tsa, waczKey);
    await store.write(deployed.name, deployed.folder);
    await store.write(drifted.name, drifted.folder);

    say("Deriving captures on days in March 2026 (fictional times)…");
    const derived: string[] = [];
    const derive = (source: string, iso: string, kind: "deploy" | "scheduled") => {
      const folder = deriveCapture(source, storeFolder, { at: at(iso), kind });
      derived.push(folder.split("/").pop()!);
      return folder;
    };
    derive(deployed.folder, "2026-03-01T14:05:00Z", "deploy");
    for (let day = 2; day <= 20; day++) derive(deployed.folder, `2026-03-${String(day).padStart(2, "0")}T06:17:00Z`, "scheduled");
    derive(deployed.folder, "2026-03-14T15:40:00Z", "deploy");
    const derivedDrift = derive(drifted.folder, "2026-03-21T06:17:00Z", "scheduled");
    derive(deployed.folder, "2026-03-21T11:02:00Z", "deploy");

    // Altered after it was stored: a PDF of 10 March rewritten (a copy: derived files are hard links).
    const tampered = join(storeFolder, "20260310T061700Z");
    const tamperedFile = "pdf/privacy-policy.pdf";
    const pdf = join(tampered, tamperedFile);
    copyFileSync(pdf, `${pdf}.copy`);
    unlinkSync(pdf);
    const bytes = readFileSync(`${pdf}.copy`);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    writeFileSync(pdf, bytes);
    unlinkSync(`${pdf}.copy`);
    // Never finished: the capture of 12 March has no manifest.
    const incomplete = join(storeFolder, "20260312T061700Z");
    unlinkSync(join(incomplete, MANIFEST));
    if (options.tsa) copyFileSync(options.tsa.caFile, join(options.folder, "tsa-ca.pem"));
    const result: RecordsDemo = {
      store: storeFolder,
      waczKeyFile,
      names: {
        deployed: deployed.name,
        drifted: drifted.name,
        derived,
        tampered: "20260310T061700Z",
        incomplete: "20260312T061700Z",
        derivedDrift: derivedDrift.split("/").pop()!,
      },
      tamperedFile,
    };
    return result;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
