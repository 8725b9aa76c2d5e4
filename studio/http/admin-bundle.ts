/**
 * Decap's files as the admin page loads them, for editors on the firm's VPN: under a folder named by
 * the hash of their contents (`/admin/decap/<hash>/decap-cms.js`, its chunks beside it, since webpack
 * takes its public path from the script's address), so a browser keeps them for a year and asks again
 * only for another Decap; and brotli- or gzip-compressed by Accept-Encoding, from copies made once per
 * Decap version and machine in the user's cache folder (`$XDG_CACHE_HOME` or `~/.cache`, then
 * `content-studio/decap/<hash>/`; the service's is in its state directory, deploy/studio/studio.service).
 * The copies are made in the background after the start (brotli takes a core for about 15 s); until
 * they are, the files go out as they are. One process makes them (a lock file names it); the others wait
 * for its copies, or take over from one that died.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { isRunning } from "../../lib/processes.ts";
import { decapAssets, decapDist } from "./admin-assets.ts";

export type Encoding = "br" | "gzip";
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

/** The files the admin page loads (the bundle, its chunks, styles and wasm): the ones compressed ahead. */
const LOADED = /^(?:\d+\.)?decap-cms\.js$|\.css$|\.wasm$/;

export const IMMUTABLE = "max-age=31536000, immutable";

export interface DecapBundle {
  /** The hash of the files' contents, which names their folder. */
  version: string;
  /** Where the admin page asks for them: `/admin/decap/<version>/`. */
  base: string;
  /** What to send for a name and an Accept-Encoding: the file or its compressed copy; null for a name not in the bundle. */
  file(name: string, acceptEncoding: string): { path: string; encoding: Encoding | null; size: number } | null;
  /** Settles when every compressed copy is on disk (made here or by another studio of this machine). */
  compressed: Promise<void>;
}

const bundles = new Map<string, DecapBundle>();
let decap: ReturnType<typeof readDecap> | undefined;

/** Where the compressed copies of a machine's studios are kept. */
export const decapCopies = (env: NodeJS.ProcessEnv = process.env) =>
  join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "content-studio", "decap");

/** Decap's bundle, its compressed copies kept in `folder`: made once per process and version. */
export function decapBundle(folder = decapCopies()): DecapBundle {
  const { dist, names, sorted, version } = (decap ??= readDecap());
  const copies = join(folder, version);
  const known = bundles.get(copies);
  if (known) return known;
  const made = new Set<string>();
  const copyOf = (name: string, encoding: Encoding) => join(copies, name + SUFFIX[encoding]);
  const loaded = sorted.filter((name) => LOADED.test(name));
  const bundle: DecapBundle = {
    version,
    base: `/admin/decap/${version}/`,
    file(name, acceptEncoding) {
      if (!names.has(name)) return null;
      for (const encoding of ["br", "gzip"] as const) {
        if (!acceptEncoding.includes(encoding) || !LOADED.test(name)) continue;
        const copy = copyOf(name, encoding);
        if (made.has(copy) || existsSync(copy)) {
          made.add(copy);
          return { path: copy, encoding, size: statSync(copy).size };
        }
      }
      const path = join(dist, name);
      return { path, encoding: null, size: statSync(path).size };
    },
    compressed: Promise.resolve(),
  };
  bundle.compressed = compressAll(dist, copies, loaded, copyOf).catch((error: Error) => {
    // The files still go out as they are: slower for the editor, never wrong.
    console.error(`studio: compressing Decap's files failed: ${error.message}`);
  });
  bundles.set(copies, bundle);
  return bundle;
}

/** Decap's files and the hash of their contents (about 12 MB, read once per process). */
function readDecap() {
  const dist = decapDist();
  const names = decapAssets();
  const sorted = [...names].sort();
  const hash = createHash("sha256");
  for (const name of sorted)
    hash
      .update(name)
      .update("\0")
      .update(readFileSync(join(dist, name)));
  return { dist, names, sorted, version: hash.digest("hex").slice(0, 16) };
}

/** Whether a copy is complete: present, or left out on purpose because it was no smaller (an empty marker). */
const done = (copy: string) => existsSync(copy) || existsSync(`${copy}.none`);

async function compressAll(dist: string, copies: string, names: string[], copyOf: (name: string, encoding: Encoding) => string) {
  const all = names.flatMap((name) => (["br", "gzip"] as const).map((encoding) => ({ name, encoding, copy: copyOf(name, encoding) })));
  const missing = () => all.filter(({ copy }) => !done(copy));
  if (missing().length === 0) return;
  mkdirSync(copies, { recursive: true });
  const lock = `${copies}.lock`;
  for (;;) {
    if (missing().length === 0) return;
    if (takeLock(lock)) break;
    // Another studio of this machine is making them: wait for it, or take over when it has died.
    await new Promise((resolve) => setTimeout(resolve, 500).unref());
  }
  try {
    // The bundle first: it is what every visit loads.
    const order = missing().sort((a, b) => Number(b.name === "decap-cms.js") - Number(a.name === "decap-cms.js"));
    for (const { name, encoding, copy } of order) {
      if (done(copy)) continue;
      const body = await readFile(join(dist, name));
      const packed =
        encoding === "br"
          ? await promisify(brotliCompress)(body, {
              // Quality 10 with brotli's largest window: within 2 % of quality 11, in a quarter of its time.
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 10,
                [constants.BROTLI_PARAM_LGWIN]: 24,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            })
          : await promisify(gzip)(body, { level: 9 });
      const work = `${copy}.tmp-${process.pid}`;
      // A copy no smaller than the file is not kept: the file goes out as it is.
      await writeFile(work, packed.length < body.length ? packed : "");
      renameSync(work, packed.length < body.length ? copy : `${copy}.none`);
    }
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes the lock file (its content is the holder's process id); one left by a process that has ended is taken over. */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let holder: number;
  try {
    holder = Number(readFileSync(lock, "utf8"));
  } catch {
    return false;
  }
  if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) return false;
  rmSync(lock, { force: true });
  return false;
}
