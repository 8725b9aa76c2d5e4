/**
 * What dist/ holds, indexed once at startup (as sirv does in production mode), so the server can
 * answer conditional and Range requests before sirv sends a 200, with the same file and ETag that
 * sirv would pick.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

export interface Variant {
  abs: string;
  size: number;
  mtime: Date;
  /** Full-precision mtime, to notice a file replaced since startup. */
  mtimeMs: number;
  etag: string;
  /** null for the identity encoding. */
  encoding: "br" | "gzip" | null;
  /** The bytes, for files small enough to keep in memory. */
  body: Buffer | null;
}

export interface FileIndex {
  /** The file a URL path names, in the encoding sirv would choose for this Accept-Encoding. */
  resolve(pathname: string, acceptEncoding: string): Variant | null;
}

/**
 * `memoryMaxBytes`: files up to this size are read once and answered from memory (the whole site is
 * under a megabyte; an open/read/close per request is most of a static server's cost). Larger ones
 * are streamed from disk by sirv.
 */
export function indexFiles(root: string, memoryMaxBytes = 0): FileIndex {
  const files = new Map<string, Variant>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    const urlPath = `/${relative(root, abs).split(sep).join("/")}`;
    // Same rule as sirv with dotfiles: false: nothing under a dot segment is indexed.
    if (urlPath.split("/").some((s) => s.startsWith("."))) continue;
    const stats = statSync(abs);
    const encoding = urlPath.endsWith(".br") ? "br" : urlPath.endsWith(".gz") ? "gzip" : null;
    // sirv's ETag format, so a 304 decided here names the ETag sirv sent on the 200.
    files.set(urlPath, {
      abs,
      size: stats.size,
      mtime: stats.mtime,
      mtimeMs: stats.mtimeMs,
      etag: `W/"${stats.size}-${stats.mtime.getTime()}"`,
      encoding,
      body: stats.size <= memoryMaxBytes ? readFileSync(abs) : null,
    });
  }

  return {
    resolve(pathname, acceptEncoding) {
      const base = pathname.replace(/\/$/, "");
      const candidates = base === "" ? ["/index.html"] : [base, `${base}.html`, `${base}/index.html`];
      // sirv's own tests of Accept-Encoding (substring matches, brotli first), so both agree on the variant.
      const br = /(br|brotli)/i.test(acceptEncoding);
      const gzip = acceptEncoding.includes("gzip");
      for (const candidate of candidates) {
        if (!files.has(candidate) || /\.(br|gz)$/.test(candidate)) continue;
        return (br && files.get(`${candidate}.br`)) || (gzip && files.get(`${candidate}.gz`)) || files.get(candidate) || null;
      }
      return null;
    },
  };
}
