/**
 * The one definition of the site's HTTP headers. integrations/publish (astro build) writes it out for every place
 * that serves the site: our server (which reads dist/_headers), Cloudflare Pages and Netlify
 * (dist-static/_headers) and nginx (deploy/nginx/generated/security-headers.conf). Inline scripts and styles are allowed by
 * their SHA-256 hashes, computed from the built files; never 'unsafe-inline'.
 */

export interface PolicyInputs {
  /** 'sha256-…' sources of every inline <script> in the build. */
  scriptHashes: string[];
  /** 'sha256-…' sources of every inline <style> in the build. */
  styleHashes: string[];
  /** The contact form provider's script URL and frame base URL. */
  formEmbedScriptUrl: string;
  formFrameBaseUrl: string;
  /** Optional analytics script URL ("" for none). */
  analyticsScriptUrl: string;
  /** Optional status page whose JSON the header's dot reads ("" for none). */
  statusUrl: string;
}

const origin = (url: string) => (url ? new URL(url).origin : null);
const unique = (values: Array<string | null>) => [...new Set(values.filter((v): v is string => Boolean(v)))];

export function contentSecurityPolicy(inputs: PolicyInputs): string {
  const formScript = origin(inputs.formEmbedScriptUrl);
  const formFrame = origin(inputs.formFrameBaseUrl);
  const analytics = origin(inputs.analyticsScriptUrl);
  const q = (hash: string) => `'${hash}'`;
  const directives: Array<[string, string[]]> = [
    ["default-src", ["'none'"]],
    ["script-src", unique(["'self'", ...inputs.scriptHashes.map(q), formScript, analytics])],
    ["style-src", unique(["'self'", ...inputs.styleHashes.map(q)])],
    // Every image is the site's own, the tab icon included (browsers apply img-src to it).
    ["img-src", ["'self'"]],
    ["font-src", ["'self'"]],
    ["connect-src", unique(["'self'", formScript, analytics, origin(inputs.statusUrl)])],
    ["frame-src", unique([formFrame])],
    ["manifest-src", ["'self'"]],
    ["form-action", ["'self'"]],
    ["base-uri", ["'none'"]],
    ["object-src", ["'none'"]],
    ["frame-ancestors", ["'none'"]],
    ["upgrade-insecure-requests", []],
  ];
  return directives.map(([name, values]) => [name, ...values].join(" ")).join("; ");
}

/** Headers on every answer (200, 304, 404, 405, 500…). HSTS only where the deployment speaks TLS. */
export function securityHeaders(csp: string, options: { tls: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    ...(options.tls ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // The powerful features a marketing page could be abused to request; kept short because every
    // header byte counts against the first round trip of each page.
    "Permissions-Policy":
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), display-capture=(), browsing-topics=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "DENY",
  };
}

/** Hashed build assets never change; everything else revalidates with its ETag. */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";
export const CACHE_REVALIDATE = "no-cache";
export const IMMUTABLE_PREFIX = "/_astro/";

export function cacheControlFor(pathname: string): string {
  return pathname.startsWith(IMMUTABLE_PREFIX) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

/** Cloudflare Pages reads at most 100 rules from `_headers`, and at most 2,000 characters a line. */
export const STATIC_HOST_LIMITS = { rules: 100, lineLength: 2_000 } as const;

/**
 * `_headers` in the format Cloudflare Pages and Netlify read (our server reads its "/*" block too).
 * Both hosts apply every rule whose path matches; Cloudflare joins the values of a header that several
 * matching rules set ("no-cache, public, max-age=31536000, immutable"), Netlify's CLI keeps the later
 * one. So no request path may match two rules that set the same header: the security headers are in
 * "/*" alone, and Cache-Control is in one rule per published path (`urlPaths`, every published file's
 * URL path outside `/_astro/`) and in `/_astro/*`. A path without a rule (an unknown one, answered with
 * the not-found page) gets the host's own default. `! Access-Control-Allow-Origin` detaches the
 * `Access-Control-Allow-Origin: *` Cloudflare Pages adds to every answer; Netlify's parser skips the
 * line (it has no colon) and Netlify adds no such header.
 */
export function renderHeadersFile(headers: Record<string, string>, urlPaths: string[]): string {
  const block = (path: string, entries: string[]) => [path, ...entries.map((entry) => `  ${entry}`)].join("\n");
  const pages = [...new Set(urlPaths)].filter((path) => !path.startsWith(IMMUTABLE_PREFIX)).sort();
  const rules = [
    block("/*", ["! Access-Control-Allow-Origin", ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]),
    block(`${IMMUTABLE_PREFIX}*`, [`Cache-Control: ${CACHE_IMMUTABLE}`]),
    ...pages.map((path) => block(path, [`Cache-Control: ${cacheControlFor(path)}`])),
  ];
  if (rules.length > STATIC_HOST_LIMITS.rules)
    throw new Error(`_headers: ${rules.length} rules, more than the ${STATIC_HOST_LIMITS.rules} Cloudflare Pages reads`);
  const long = rules.flatMap((rule) => rule.split("\n")).find((line) => line.length > STATIC_HOST_LIMITS.lineLength);
  if (long)
    throw new Error(
      `_headers: a line of ${long.length} characters, over Cloudflare Pages' ${STATIC_HOST_LIMITS.lineLength}: ${long.slice(0, 60)}…`,
    );
  return ["# Generated by integrations/publish (astro build) from src/shared/security-headers.ts. Do not edit.", ...rules, ""].join("\n");
}

/** Parses the "/*" block of a _headers file (what our server applies to every answer). */
export function parseHeadersFile(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let inGlobal = false;
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      inGlobal = line.trim() === "/*";
      continue;
    }
    if (!inGlobal) continue;
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  delete headers["Cache-Control"];
  return headers;
}

/** An nginx include with `add_header … always` for each header (nginx needs it in every location that adds headers). */
export function renderNginxInclude(headers: Record<string, string>): string {
  const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return [
    "# Generated by integrations/publish (astro build) from src/shared/security-headers.ts. Do not edit.",
    ...Object.entries(headers).map(([name, value]) => `add_header ${name} "${escape(value)}" always;`),
    "",
  ].join("\n");
}
