/**
 * What every request to the studio passes first. `Host` must name the studio (a rebound DNS name is
 * refused); a request that changes something must carry the studio's own `Origin` and, when the
 * browser sends it, `Sec-Fetch-Site: same-origin` (another web page in the same browser is refused);
 * every answer carries the studio's security headers. Forms also carry the session's synchronizer token
 * (checked where they are read: `checkFormToken`).
 */
import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/**
 * The admin page's own policy: its own scripts and API only, nothing from another origin. Decap's editor
 * styles its widgets inline, and checks its configuration with ajv, which compiles validators with
 * `new Function` ('unsafe-eval'; the page loads no script but Decap's bundle from node_modules and the
 * studio's own module). `extraFormAction` is the IdP, which the sign-out form's redirect reaches.
 */
export function adminCsp(extraFormAction = ""): string {
  return [
    "default-src 'none'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "base-uri 'none'",
    `form-action 'self'${extraFormAction ? ` ${extraFormAction}` : ""}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

export const ADMIN_CSP = adminCsp();

/** The security headers of every answer; a route may set its own policy first (the review's page frames). */
export function securityHeaders(csp: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", csp);
    headers.set("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: under no-referrer a form sends "Origin: null", which the studio must refuse.
    headers.set("Referrer-Policy", "same-origin");
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    // A replayed capture's assets are fetched by its sandboxed frame, an opaque origin: that route says cross-origin.
    if (!headers.has("Cross-Origin-Resource-Policy")) headers.set("Cross-Origin-Resource-Policy", "same-origin");
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
    if (new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https")
      headers.set("Strict-Transport-Security", "max-age=31536000");
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** Refuses, with 403 and one sentence, what does not come from the studio's own page. `hosts` are `host:port`. */
export function ownRequests(hosts: string[], origins: string[]): MiddlewareHandler {
  const refuse = (text: string) => new Response(`${text}\n`, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return async (c, next) => {
    if (!hosts.includes(c.req.header("host") ?? "")) return refuse("This studio answers only requests addressed to it (Host refused).");
    if (!SAFE_METHODS.has(c.req.method)) {
      // A browser sends Origin with every request that changes something; one without it is not the studio's page.
      const origin = c.req.header("origin");
      if (origin === undefined || !origins.includes(origin))
        return refuse("This studio accepts changes only from its own pages (Origin refused).");
      const site = c.req.header("sec-fetch-site");
      if (site !== undefined && site !== "same-origin")
        return refuse("This studio accepts changes only from its own pages (cross-site request refused).");
    }
    await next();
  };
}

/** Whether a posted form carries the session's synchronizer token. */
export function checkFormToken(expected: string, posted: unknown): boolean {
  if (typeof posted !== "string" || posted.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(posted), Buffer.from(expected));
}
