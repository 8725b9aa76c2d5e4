/**
 * `npm run records:verify`: checks captures from the bytes as kept, and says ✓ or ✗ per check with one
 * sentence naming each altered or missing file (lib/records/verify.ts). Exit 0 when everything is
 * intact, 1 when anything is not, 2 for a bad command line.
 *
 *   npm run records:verify -- <capture folder> [--manifest-sha256 <hex>]
 *   npm run records:verify -- <export.zip>                 (an examiner's export: records:export, the studio)
 *   npm run records:verify -- <export.wacz>                (the same as a WACZ: records:export -- --format wacz)
 *   npm run records:verify -- --store [<capture name>...]  (ARCHIVE_STORE, every capture or those named,
 *                                                           each with the WACZ stored with it, capture.wacz)
 *
 * Timestamp tokens are checked against ARCHIVE_TSA_CA (an export carries the CA it was made with, used
 * when ARCHIVE_TSA_CA is not set, and said so).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../lib/root.ts";
import { verifyExport } from "../lib/records/export.ts";
import { folderSource, openStore, storeSource, StoreError } from "../lib/records/store.ts";
import { loadTsaCa, TimestampError } from "../lib/records/timestamp.ts";
import { verifyCapture, type Verification } from "../lib/records/verify.ts";
import { verifyWacz } from "../lib/records/wacz.ts";

const usage =
  "usage: npm run records:verify -- <capture folder> [--manifest-sha256 <hex>] | <export.zip> | <export.wacz> | --store [<capture name>...]";
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "manifest-sha256": { type: "string" }, store: { type: "boolean", default: false } },
});

function report(name: string, result: Pick<Verification, "ok" | "lines" | "complete">): boolean {
  console.log(`${result.ok ? "✓" : "✗"} ${name}${result.complete ? "" : " (incomplete)"}`);
  for (const line of result.lines) {
    console.log(`  ${line.ok ? "✓" : "✗"} ${line.label}: ${line.text}`);
    for (const problem of line.problems.slice(line.ok ? 0 : 1)) console.log(`      ${problem}`);
  }
  return result.ok;
}

async function main(): Promise<number> {
  const tsaCa = loadTsaCa(process.env.ARCHIVE_TSA_CA);
  if (values.store) {
    const store = await openStore(process.env.ARCHIVE_STORE, projectRoot);
    const listed = await store.list();
    const names = positionals.length ? positionals : [...listed.keys()];
    if (names.length === 0) {
      console.log(`records:verify: ${store.label} holds no capture yet`);
      return 0;
    }
    let ok = true;
    for (const name of names) {
      const files = listed.get(name);
      if (!files) {
        console.log(`✗ ${name}: ${store.label} has no capture of that name`);
        ok = false;
        continue;
      }
      ok = report(name, await verifyCapture(storeSource(store, name, files), { tsaCa })) && ok;
    }
    console.log(
      `records:verify: ${names.length} capture${names.length === 1 ? "" : "s"} in ${store.label}: ${ok ? "all intact" : "NOT all intact"}`,
    );
    return ok ? 0 : 1;
  }
  if (positionals.length !== 1) {
    console.error(usage);
    return 2;
  }
  // npm runs scripts in the project's folder; a path is meant from where the command was typed.
  const target = resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  if (!existsSync(target)) {
    console.error(`records:verify: ${target} does not exist`);
    return 2;
  }
  if (statSync(target).isFile() && /\.wacz$/i.test(target)) {
    const result = await verifyWacz(target, { tsaCa });
    for (const problem of result.problems) console.log(`✗ ${problem}`);
    const time = result.signedAt ? `, at ${result.signedAt} by the TSA's token` : "";
    const signed = result.signed ? `signed by the key with SHA-256 fingerprint ${result.fingerprint}${time}` : "not signed";
    console.log(
      `records:verify: ${target} ${result.ok ? "is an intact WACZ" : "is NOT an intact WACZ"}: ${result.captures} capture(s), ${signed}`,
    );
    return result.ok ? 0 : 1;
  }
  if (statSync(target).isFile()) {
    const result = await verifyExport(target, { tsaCa });
    for (const line of result.lines) {
      console.log(`${line.ok ? "✓" : "✗"} ${line.label}: ${line.text}`);
      for (const problem of line.problems) console.log(`    ${problem}`);
    }
    console.log(`records:verify: ${target} ${result.ok ? "is an intact export" : "is NOT an intact export"}`);
    return result.ok ? 0 : 1;
  }
  const result = await verifyCapture(folderSource(target), { expectedManifestSha256: values["manifest-sha256"], tsaCa });
  report(target, result);
  if (!result.ok)
    console.error(`records:verify: ${target} is NOT intact (${result.problems.length} problem${result.problems.length === 1 ? "" : "s"})`);
  else console.log(`records:verify: ${target} is intact; manifest.json sha256 ${result.manifestSha256}`);
  return result.ok ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof StoreError || error instanceof TimestampError)) throw error;
  console.error(`records:verify: ${error.message}`);
  process.exitCode = 1;
}
