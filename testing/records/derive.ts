/**
 * TEST AND DEMO RECORDS ONLY, NEVER THE FIRM'S: a capture "made" at another time from a real one, so
 * that tests, the studio's demo and the benchmark have a store with many days without capturing the
 * site many times. The copy keeps every page, PDF and WARC of its source (its WARC keeps its name, which
 * is the source's time); only the manifest is rewritten, with the time and kind asked for, so the copy
 * verifies like a capture. Its time is invented: any timestamp token is dropped (its time would be
 * false), and such a copy must never be put in a store that holds the firm's records.
 *
 * The WARC and PDFs are hard links where the file system allows (the benchmark makes 1,100 copies):
 * never write into a derived capture's files in place, as that changes its source and every sibling.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256Hex } from "../../lib/hash.ts";
import {
  BESIDE_MANIFEST,
  filesUnder,
  folderName,
  MANIFEST,
  MANIFEST_FORMAT,
  MANIFEST_SHA256,
  manifestSchema,
  pageTitle,
  parseManifest,
  type CaptureKind,
  type ManifestV2,
} from "../../lib/records/manifest.ts";

export interface DeriveOptions {
  /** The invented time of the copy: its name and its manifest's createdAt. */
  at: Date;
  /** Default: the source's kind (deploy for a format 1 source). */
  kind?: CaptureKind;
  /** Changes the copy's manifest before it is written (a page's title, an approval's principal…). */
  edit?: (manifest: ManifestV2) => void;
}

/** A format 1 manifest as format 2: format 1 captured only approved text, so each page's approved hash is its text's. */
function asFormat2(source: ReturnType<typeof parseManifest>): ManifestV2 {
  if (source.format === "site-archive/2") return structuredClone(source);
  const { format: _format, pages, ...rest } = structuredClone(source);
  return {
    format: MANIFEST_FORMAT,
    kind: "deploy",
    ...rest,
    pages: pages.map((page) => ({ ...page, title: pageTitle(page), approvedSha256: page.textSha256 })),
  };
}

/** Copies the capture folder `source` to `outRoot/<folderName(at)>` as a capture made at `at`; returns the new folder. */
export function deriveCapture(source: string, outRoot: string, options: DeriveOptions): string {
  const target = join(outRoot, folderName(options.at));
  if (existsSync(target)) throw new Error(`${target} already exists; a derived capture needs a time of its own.`);
  const manifest = asFormat2(parseManifest(readFileSync(join(source, MANIFEST))));
  manifest.createdAt = options.at.toISOString();
  if (options.kind) manifest.kind = options.kind;
  options.edit?.(manifest);
  const checked = manifestSchema.parse(manifest);

  for (const path of filesUnder(source)) {
    if ((BESIDE_MANIFEST as readonly string[]).includes(path)) continue;
    const to = join(target, path);
    mkdirSync(dirname(to), { recursive: true });
    try {
      linkSync(join(source, path), to);
    } catch {
      // Another file system, or one without hard links: a copy then.
      copyFileSync(join(source, path), to);
    }
  }
  mkdirSync(target, { recursive: true });
  const json = `${JSON.stringify(checked, null, 2)}\n`;
  writeFileSync(join(target, MANIFEST), json);
  writeFileSync(join(target, MANIFEST_SHA256), `${sha256Hex(json)}  ${MANIFEST}\n`);
  return target;
}
