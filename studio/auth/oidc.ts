/**
 * The studio as an OpenID Connect relying party (openid-client): authorization code with PKCE (S256),
 * `state` and `nonce`, the client authenticating with client_secret_basic, scopes `openid email
 * profile`; the identity is read from the ID token alone (no API is called, no access token kept).
 * What one sign-in needs between the redirect out and the callback is kept here, by a random key held
 * in a short-lived cookie, never in the browser itself.
 */
import { randomBytes } from "node:crypto";
import * as client from "openid-client";
import type { ServerSettings } from "../settings.ts";
import { isLoopbackUrl } from "../settings.ts";

export const LOGIN_COOKIE = "studio-login";
const LOGIN_TTL_MS = 10 * 60_000;
/** How long the studio waits for the IdP to answer before it tells the person it cannot be reached. */
const PROBE_TIMEOUT_MS = 5_000;

/** The IdP cannot be reached or is failing (no answer, or a 5xx): what failed, for the studio's log only. */
export class SignInUnavailable extends Error {}

/** Whether a failure of openid-client is the IdP's absence or breakdown, not an answer it gave. */
function isOutage(error: unknown): boolean {
  const { name, code, message, cause, status } = (error ?? {}) as {
    name?: string;
    code?: string;
    message?: string;
    cause?: unknown;
    status?: number;
  };
  if (error instanceof SignInUnavailable) return true;
  // undici's network failure (refused, reset, DNS, TLS), or a time-out.
  if (name === "TypeError" && /fetch failed/.test(message ?? "")) return true;
  if (name === "TimeoutError" || name === "AbortError" || code === "OAUTH_TIMEOUT") return true;
  if (typeof status === "number" && status >= 500) return true;
  if (cause instanceof Response) return cause.status >= 500;
  return false;
}

/** What a failure was, for the studio's log: the message and its causes. */
const described = (error: unknown): string => {
  const parts: string[] = [];
  for (
    let e = error as { message?: string; code?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  )
    if (e instanceof Response) parts.push(`HTTP ${e.status}`);
    else if (e.message || e.code) parts.push([e.message, e.code].filter(Boolean).join(" "));
  return parts.join(": ");
};

interface PendingLogin {
  verifier: string;
  state: string;
  nonce: string;
  /** Where to go after the sign-in (a path of the studio's). */
  returnTo: string;
  /** A fresh sign-in asked for (before an approval): the IdP must check the credentials again. */
  fresh: boolean;
  started: number;
}

export interface SignIn {
  claims: client.IDToken;
  idToken: string;
  /** The ID token's `auth_time` in milliseconds (the sign-in's own time when the IdP gives none). */
  authTime: number;
}

/** Only a path of the studio itself: never an address elsewhere (an open redirect). */
export const safeReturn = (value: string | null | undefined) =>
  value && /^\/(?!\/)[\w\-./?=&%#~]*$/.test(value) && !value.includes("\\") ? value : "/admin/";

export function relyingParty(settings: ServerSettings) {
  const pending = new Map<string, PendingLogin>();
  const redirectUri = new URL("/auth/callback", settings.publicUrl).href;
  let configuration: Promise<client.Configuration> | undefined;

  /** Discovery, once; tried again at the next sign-in when the IdP could not be reached. */
  const config = () => {
    configuration ??= client
      .discovery(settings.issuer, settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret), {
        // http only for an IdP on this machine (the demo and the tests); settings.ts refuses it elsewhere.
        execute: isLoopbackUrl(settings.issuer) && settings.issuer.protocol === "http:" ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        configuration = undefined;
        const why = `the sign-in service's discovery at ${settings.issuer.href} failed (${described(error)})`;
        throw isOutage(error) ? new SignInUnavailable(why, { cause: error }) : new Error(why, { cause: error });
      });
    return configuration;
  };

  /**
   * Whether the IdP answers (its discovery document, an ordinary request any IdP serves), before the
   * browser is sent to it: anything but an answer below 500 within 5 s counts as down. Discovery is then
   * made again at the next sign-in: an IdP that comes back, with new keys or endpoints, is found without
   * a restart.
   */
  const discoveryUrl = `${settings.issuer.href.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const probe = async () => {
    try {
      const answer = await fetch(discoveryUrl, { redirect: "manual", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await answer.body?.cancel();
      if (answer.status >= 500) throw new Error(`HTTP ${answer.status}`);
    } catch (error) {
      configuration = undefined;
      throw new SignInUnavailable(`the sign-in service at ${discoveryUrl} did not answer (${described(error)})`, { cause: error });
    }
  };

  const sweep = (now: number) => {
    for (const [key, login] of pending) if (now - login.started > LOGIN_TTL_MS) pending.delete(key);
  };

  return {
    config,
    /** The IdP's authorization URL for a new sign-in, and the key of its pending state (for the cookie). */
    async begin(returnTo: string, fresh: boolean): Promise<{ url: URL; key: string }> {
      const now = Date.now();
      sweep(now);
      const login: PendingLogin = {
        verifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
        returnTo: safeReturn(returnTo),
        fresh,
        started: now,
      };
      const configured = await config();
      await probe();
      const key = randomBytes(24).toString("base64url");
      pending.set(key, login);
      const url = client.buildAuthorizationUrl(configured, {
        redirect_uri: redirectUri,
        scope: "openid email profile",
        code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
        code_challenge_method: "S256",
        state: login.state,
        nonce: login.nonce,
        ...(fresh ? { prompt: "login", max_age: String(Math.floor(settings.freshMs / 1000)) } : {}),
      });
      return { url, key };
    },
    /** Completes a sign-in from the IdP's redirect back; throws when anything does not check out. */
    async finish(key: string | undefined, currentUrl: URL): Promise<SignIn & { returnTo: string; fresh: boolean }> {
      const login = key ? pending.get(key) : undefined;
      if (key) pending.delete(key);
      if (!login || Date.now() - login.started > LOGIN_TTL_MS)
        throw new Error("this sign-in was not started here, or it took over ten minutes");
      const tokens = await client
        .authorizationCodeGrant(await config(), currentUrl, {
          pkceCodeVerifier: login.verifier,
          expectedState: login.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
          ...(login.fresh ? { maxAge: Math.floor(settings.freshMs / 1000) } : {}),
        })
        .catch((error: unknown) => {
          if (!isOutage(error)) throw error;
          // The code is spent either way: the person signs in again once the IdP answers.
          configuration = undefined;
          throw new SignInUnavailable(`the sign-in service failed during the code exchange (${described(error)})`, { cause: error });
        });
      const claims = tokens.claims()!;
      const authTime = typeof claims.auth_time === "number" ? claims.auth_time * 1000 : login.started;
      // A fresh sign-in must be one: the IdP checked the credentials after it was asked to.
      if (login.fresh && (typeof claims.auth_time !== "number" || authTime < login.started - 5_000))
        throw new Error("the sign-in service did not ask for your credentials again");
      return { claims, idToken: tokens.id_token!, authTime, returnTo: login.returnTo, fresh: login.fresh };
    },
    /** The IdP's end-session URL, coming back to the studio's signed-out page. */
    async endSessionUrl(idToken: string | undefined): Promise<URL | undefined> {
      const configured = await config().catch(() => undefined);
      if (!configured?.serverMetadata().end_session_endpoint) return undefined;
      // An IdP that does not answer: the studio's own sign-out is done, and the browser is not sent to a dead page.
      const answers = await probe().then(
        () => true,
        () => false,
      );
      if (!answers) return undefined;
      return client.buildEndSessionUrl(configured, {
        post_logout_redirect_uri: new URL("/auth/signed-out", settings.publicUrl).href,
        ...(idToken ? { id_token_hint: idToken } : {}),
      });
    },
  };
}

export type RelyingParty = ReturnType<typeof relyingParty>;
