/**
 * Sign-in, sign-out and the session guard of the server mode. Every page without a session is sent to
 * the IdP (and back to where it was); every API call without one gets 401 and one sentence. A sign-in
 * starts from a GET (`/auth/login`), never a form post: Chrome applies the page's `form-action` to the
 * redirect that follows a post, and a fresh sign-in before an approval must reach the IdP.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { HttpBindings } from "@hono/node-server";
import { utcDay, type RosterEntry } from "../../lib/approval/roster.ts";
import type { ServerSettings } from "../settings.ts";
import { checkFormToken } from "../http/guards.ts";
import { sendPage } from "../pages/render.ts";
import { SignedOutPage, SignInRefusedPage, SignInUnavailablePage } from "./pages.tsx";
import { LOGIN_COOKIE, safeReturn, SignInUnavailable, type RelyingParty } from "./oidc.ts";
import { roleOf, type IdTokenClaims } from "./roles.ts";
import { SESSION_COOKIE, type Session, type SessionStore } from "./sessions.ts";

export type StudioEnv = { Bindings: HttpBindings; Variables: { session: Session } };

const cookie = { prefix: "host", path: "/", secure: true, httpOnly: true, sameSite: "Lax" } as const;

export interface AuthDeps {
  settings: ServerSettings;
  rp: RelyingParty;
  sessions: SessionStore;
  roster: () => RosterEntry[];
}

const wantsPage = (c: { req: { method: string; header(name: string): string | undefined } }) =>
  c.req.method === "GET" && (c.req.header("sec-fetch-dest") === "document" || (c.req.header("accept") ?? "").includes("text/html"));

/** The session of the request, or the way to get one. */
export function requireSession(sessions: SessionStore): MiddlewareHandler<StudioEnv> {
  return async (c, next) => {
    const session = sessions.get(getCookie(c, SESSION_COOKIE, "host"));
    if (session) {
      c.set("session", session);
      return next();
    }
    if (wantsPage(c)) {
      const here = new URL(c.req.url);
      return c.redirect(`/auth/login?return=${encodeURIComponent(here.pathname + here.search + here.hash)}`, 303);
    }
    return c.json({ error: "You are not signed in to the studio, or your session ended: reload the page to sign in again." }, 401);
  };
}

export function authRoutes({ settings, rp, sessions, roster }: AuthDeps) {
  const app = new Hono<StudioEnv>();

  /** The IdP is down or failing: one sentence for the person (503), what failed for the log. */
  const unavailable = (c: Context<StudioEnv>, error: Error, during: string) => {
    console.error(`studio: sign-in: ${during}: ${error.message}`);
    return sendPage(c, SignInUnavailablePage, {}, 503);
  };

  app.get("/auth/login", async (c) => {
    try {
      const { url, key } = await rp.begin(safeReturn(c.req.query("return")), c.req.query("fresh") === "1");
      setCookie(c, LOGIN_COOKIE, key, { ...cookie, maxAge: 600 });
      return c.redirect(url.href, 303);
    } catch (error) {
      if (error instanceof SignInUnavailable) return unavailable(c, error, "starting a sign-in");
      console.error(`studio: sign-in: starting a sign-in failed: ${(error as Error).message}`);
      const reason = "The studio could not start a sign-in: the sign-in service's answer was not usable. Tell the studio's administrator.";
      return sendPage(c, SignInRefusedPage, { reason }, 502);
    }
  });

  app.get("/auth/callback", async (c) => {
    const key = getCookie(c, LOGIN_COOKIE, "host");
    deleteCookie(c, LOGIN_COOKIE, cookie);
    const here = new URL(c.req.url);
    let signIn;
    try {
      signIn = await rp.finish(key, new URL(here.pathname + here.search, settings.publicUrl));
    } catch (error) {
      if (error instanceof SignInUnavailable) return unavailable(c, error, "completing a sign-in");
      // openid-client says what failed in the error's cause ("unexpected state", "nonce mismatch").
      const { message, cause } = error as Error & { cause?: { message?: string } };
      const reason = `The sign-in did not complete: ${message}${cause?.message ? ` (${cause.message})` : ""}.`;
      return sendPage(c, SignInRefusedPage, { reason }, 400);
    }
    const claims = signIn.claims as IdTokenClaims & { iss: string; sub: string };
    const decision = roleOf(claims, settings.groups, roster(), utcDay(new Date()));
    if ("refused" in decision) return sendPage(c, SignInRefusedPage, { reason: decision.refused }, 403);
    // One session per person: a new sign-in (a fresh one before an approval included) replaces the old.
    sessions.deleteFor(claims.iss, claims.sub);
    sessions.delete(getCookie(c, SESSION_COOKIE, "host"));
    const session = sessions.create(
      {
        issuer: claims.iss,
        subject: claims.sub,
        email: String(claims.email).toLowerCase(),
        name: typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : String(claims.email),
        role: decision.role,
        authTime: signIn.authTime,
        confirmed: signIn.fresh,
      },
      signIn.idToken,
    );
    setCookie(c, SESSION_COOKIE, session.id, cookie);
    return c.redirect(signIn.returnTo, 303);
  });

  app.post("/auth/logout", async (c) => {
    const session = sessions.get(getCookie(c, SESSION_COOKIE, "host"));
    const form = await c.req.parseBody();
    if (session && !checkFormToken(session.csrf, form._csrf))
      return c.text("This form has expired or did not come from the studio: reload the page and try again.\n", 403);
    sessions.delete(session?.id);
    deleteCookie(c, SESSION_COOKIE, cookie);
    const end = await rp.endSessionUrl(session?.idToken);
    return c.redirect(end?.href ?? "/auth/signed-out", 303);
  });

  app.get("/auth/signed-out", (c) => sendPage(c, SignedOutPage, {}));
  return app;
}
