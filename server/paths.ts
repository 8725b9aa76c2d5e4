/** The site's own decisions about a request path: whether it may exist, and which file of dist/ answers it. */
import { htmlFileOf } from "../lib/pages.ts";
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { HOST_FILES, isBuildInternal } from "../src/shared/publish.ts";

export type Decision = { kind: "bad" } | { kind: "hidden" } | { kind: "slash"; location: string } | { kind: "file"; pathname: string };

/** Decides, before any file is touched, what a request path may be. */
export function classifyPath(rawUrl: string): Decision {
  const rawPath = rawUrl.split("?")[0] ?? "";
  // Origin-form only: absolute-form, "*", "//host" and backslashes (which browsers read as "/") are refused.
  if (!rawPath.startsWith("/") || rawPath.startsWith("//") || rawPath.includes("\\")) return { kind: "bad" };
  // Printable ASCII only; anything else arrives here only from a client that skipped percent-encoding.
  if (!/^[\x21-\x7e]*$/.test(rawPath)) return { kind: "bad" };
  // An encoded slash or backslash would let one path segment pose as two after decoding.
  if (/%(2f|5c)/i.test(rawPath)) return { kind: "bad" };
  let pathname: string;
  try {
    // Throws on truncated escapes and on bytes that are not UTF-8.
    pathname = decodeURIComponent(rawPath);
  } catch {
    return { kind: "bad" };
  }
  // A "%" left after one decoding means double encoding, a classic way around traversal filters.
  // Control characters (NUL included) never belong in a path.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  if (/[\x00-\x1f\x7f]/.test(pathname) || /%[0-9a-f]{2}/i.test(pathname)) return { kind: "bad" };
  // "//" would make the trailing-slash redirect a scheme-relative URL to another host.
  if (pathname.includes("//")) return { kind: "bad" };
  if (pathname.split("/").some((s) => s === ".." || s === ".")) return { kind: "bad" };
  // Dotfiles, source maps, the precompressed copies and the hosts' files are build internals, never served by URL.
  if (isBuildInternal(pathname) || HOST_FILES.some((name) => pathname === `/${name}`)) return { kind: "hidden" };
  // The not-found page answers with status 404 even when asked for by name (no soft 404).
  if (pathname === "/404" || pathname === "/404.html") return { kind: "hidden" };
  if (pathname.length > 1 && pathname.endsWith("/")) return { kind: "slash", location: pathname.slice(0, -1) };
  return { kind: "file", pathname };
}

/** `file`: what the URL names ("/terms-of-service.html"), which sets the type; `sent`: it or its build-time brotli or gzip copy. */
export type Resolved = { file: string; sent: string; encoding: "br" | "gzip" | null };

const SUFFIX = { br: ".br", gzip: ".gz" } as const;
// lstat: a symlink is never followed out of dist/, and a directory is not a file.
const isFile = (abs: string) => lstatSync(abs, { throwIfNoEntry: false })?.isFile() ?? false;

/** The file of `root` a classified path names (pages without ".html"), and the copy this Accept-Encoding gets. */
export function resolveFile(root: string, pathname: string, acceptEncoding: string): Resolved | null {
  const candidates = pathname === "/" ? [`/${htmlFileOf("/")}`] : [pathname, `/${htmlFileOf(pathname)}`, `${pathname}/index.html`];
  const file = candidates.find((candidate) => isFile(join(root, candidate)));
  if (!file) return null;
  // Brotli first when both are offered; q-values are not weighed (browsers send none for these).
  const encoding = (["br", "gzip"] as const).find((e) => acceptEncoding.includes(e) && isFile(join(root, file + SUFFIX[e])));
  return { file, sent: encoding ? file + SUFFIX[encoding] : file, encoding: encoding ?? null };
}
