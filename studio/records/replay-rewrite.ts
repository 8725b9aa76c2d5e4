/**
 * Where a replayed capture lives in the studio, and the changes the replay makes so that a page finds
 * its recorded answers there and nowhere else (decision 0047). Every address a page names, the site's
 * own and a third party's, is pointed at its place in the replay: `<root>/privacy-policy` for the
 * site's, `<root>/.external/https/forms.example.net/js/form_embed.js` for a third party's (the form's
 * provider), in links, sources, the islands' properties and redirects; the recorded policy's sources
 * are pointed there too. The studio's own policy on top (the seal) lets the page reach nothing but the
 * replay's root, so an address the capture never recorded is answered by the studio as not archived,
 * never by the network.
 */
import { toHtml } from "hast-util-to-html";
import type { Element, Root, RootContent } from "hast";
import { parseHtml } from "../../lib/html.ts";

/** A replay's place: the capture's origin as recorded, and where the studio serves it. */
export interface ReplayPlace {
  /** The site's origin as the capture recorded it (the recording proxy's, or the live site's). */
  origin: string;
  /** The studio's origin as the examiner's browser reaches it. */
  studio: string;
  /** The path the capture is replayed under, its pass included, without a trailing slash. */
  root: string;
}

/** A third party's answers sit under this segment of the root, by scheme and host; the site's pages never start with a dot. */
export const EXTERNAL = "/.external";

const URL_ATTRIBUTES = ["href", "src", "srcSet", "action", "poster", "component-url", "renderer-url", "before-hydration-url"];
const CSP_LEFT_OUT = new Set(["frame-ancestors", "upgrade-insecure-requests", "report-uri", "report-to", "sandbox"]);

/** The replay's address of a recorded URL (absolute). */
export function placeOf(url: URL, place: ReplayPlace): string {
  const rest = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin === place.origin) return `${place.root}${rest}`;
  return `${place.root}${EXTERNAL}/${url.protocol.slice(0, -1)}/${url.host}${rest}`;
}

/** The recorded URL a path under the root asks for (its query kept); undefined for a malformed third-party address. */
export function recordedUrlOf(path: string, place: ReplayPlace): string | undefined {
  if (path !== EXTERNAL && !path.startsWith(`${EXTERNAL}/`)) return `${place.origin}${path}`;
  const found = /^\/\.external\/(https?)\/([^/?#]+)([^#]*)$/.exec(path);
  if (!found) return undefined;
  const rest = found[3] ?? "";
  return `${found[1]}://${found[2]}${rest.startsWith("/") ? rest : `/${rest}`}`;
}

/**
 * An address as a page wrote it, pointed into the replay: absolute http(s) addresses and root-relative
 * ones (resolved against the page's recorded URL); relative ones already resolve inside it, and other
 * schemes (mailto:, tel:, data:) and fragments stay as they are.
 */
export function pointInto(value: string, pageUrl: string, place: ReplayPlace): string {
  if (!/^(\/|https?:)/i.test(value.trim())) return value;
  let url: URL;
  try {
    url = new URL(value.trim(), pageUrl);
  } catch {
    return value;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? placeOf(url, place) : value;
}

/** Every string of a value that is a whole absolute http(s) address, pointed into the replay. */
function pointStrings(value: unknown, pageUrl: string, place: ReplayPlace): unknown {
  if (typeof value === "string") return /^https?:\/\//i.test(value) ? pointInto(value, pageUrl, place) : value;
  if (Array.isArray(value)) return value.map((item) => pointStrings(item, pageUrl, place));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, pointStrings(item, pageUrl, place)]));
  return value;
}

/**
 * An island's properties (Astro's `props`, JSON) with their addresses pointed into the replay: the
 * contact form's script and frame are properties, which the island adds to the page when asked.
 */
function pointProps(props: string, pageUrl: string, place: ReplayPlace): string {
  try {
    return JSON.stringify(pointStrings(JSON.parse(props), pageUrl, place));
  } catch {
    return props;
  }
}

/**
 * The page with every address it names pointed into the replay, and `first` (the replay's own script,
 * for the view with the overlays closed) as the first element of its head; scripts and styles are
 * otherwise untouched, so the recorded policy's hashes still hold.
 */
export function rewriteHtml(html: string, pageUrl: string, place: ReplayPlace, first?: Element): string {
  const tree = parseHtml(html);
  const walk = (node: Root | Element) => {
    for (const child of node.children as RootContent[]) {
      if (child.type !== "element") continue;
      if (first && child.tagName === "head") {
        child.children.unshift(first);
        first = undefined;
      }
      for (const name of URL_ATTRIBUTES) {
        const value = child.properties[name];
        if (typeof value === "string")
          child.properties[name] =
            name === "srcSet"
              ? value
                  .split(",")
                  .map((part) => part.trim().replace(/^\S+/, (url) => pointInto(url, pageUrl, place)))
                  .join(", ")
              : pointInto(value, pageUrl, place);
      }
      if (child.tagName === "astro-island" && typeof child.properties.props === "string")
        child.properties.props = pointProps(child.properties.props, pageUrl, place);
      walk(child);
    }
  };
  walk(tree);
  return toHtml(tree, { allowDangerousHtml: true });
}

/** A policy's host source (`https://forms.example.net`, `forms.example.net/js/`): scheme, host and port, path. */
const HOST_SOURCE = /^(?:(https?):\/\/)?((?:[a-z0-9-]+\.)*[a-z0-9-]+|\*(?:\.[a-z0-9-]+)+)(:\d+|:\*)?(\/[^\s]*)?$/i;

/** A recorded source pointed at its place in the replay; undefined for a wildcard, which the replay cannot point anywhere. */
function pointSource(source: string, pageUrl: string, place: ReplayPlace): string | undefined {
  const found = HOST_SOURCE.exec(source);
  if (!found || source.startsWith("'")) return source;
  const [, scheme = new URL(pageUrl).protocol.slice(0, -1), host = "", port = "", path = "/"] = found;
  if (host.includes("*") || port === ":*") return undefined;
  const url = new URL(`${scheme}://${host}${port}${path}`);
  // A source without a path allows the whole host: its place is a folder.
  const inside = placeOf(url, place);
  return `${place.studio}${inside.endsWith("/") || path !== "/" ? inside : `${inside}/`}`;
}

/**
 * The recorded policy as the replay enforces it: without what would refuse the frame or report
 * elsewhere, its host sources pointed at their places in the replay, and `scriptHash` (the replay's own
 * first script) allowed where the policy allows scripts by hash; "" when nothing is left.
 */
export function recordedPolicy(value: string, pageUrl: string, place: ReplayPlace, scriptHash?: string): string {
  const directives = value
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .filter(([name]) => name && !CSP_LEFT_OUT.has(name.toLowerCase()))
    .map(([name, ...sources]) => [name!, ...sources.flatMap((s) => pointSource(s, pageUrl, place) ?? [])]);
  const scripts =
    directives.find(([name]) => name!.toLowerCase() === "script-src") ?? directives.find(([n]) => n!.toLowerCase() === "default-src");
  // A policy that allows every inline script (and names no hash) needs none: a hash would turn that off.
  if (scriptHash && scripts && !(scripts.includes("'unsafe-inline'") && !scripts.some((s) => /^'(sha\d+|nonce)-/.test(s))))
    scripts.push(scriptHash);
  return directives.map((d) => d.join(" ")).join("; ");
}

/**
 * The seal: the studio's policy on every answer of the replay, enforced with the recorded one. The
 * page may load scripts, styles, images, fonts, frames and connections from the replay's root only
 * (inline code stays under the recorded policy's hashes), in an opaque origin that reaches neither the
 * studio's cookies nor its pages, framed by the studio alone. A frame that a replayed page opens (the
 * contact form) is framed by an opaque origin, which no frame-ancestors source matches, `*` included
 * (Chromium refuses it): it gets none, and stays inside the sandbox it inherits.
 */
export function sealPolicy(place: ReplayPlace, framedByReplay = false): string {
  const root = `${place.studio}${place.root}/`;
  return [
    "default-src 'none'",
    `script-src ${root} 'unsafe-inline'`,
    `style-src ${root} 'unsafe-inline'`,
    `img-src ${root} data: blob:`,
    `font-src ${root} data:`,
    `media-src ${root}`,
    `connect-src ${root}`,
    `frame-src ${root}`,
    `worker-src ${root}`,
    `manifest-src ${root}`,
    "object-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    ...(framedByReplay ? [] : ["frame-ancestors 'self'"]),
    "sandbox allow-scripts",
  ].join("; ");
}
