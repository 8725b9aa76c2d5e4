/**
 * A sign-in to the team studio through the demo IdP's own form, by HTTP alone (no browser): the studio's
 * redirect to the IdP, the IdP's form posted with the person's password, the IdP's redirect back with a
 * code, which the studio exchanges (openid-client) for the session cookie. Each site's cookies are kept
 * by origin, as a browser keeps them for these loopback addresses.
 */
import { expect } from "vitest";

export class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  /** Fetches without following redirects, sending and keeping the origin's cookies. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.byOrigin.get(target.origin) ?? new Map<string, string>();
    this.byOrigin.set(target.origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (value === "" || /max-age=0\b|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
}

/** Signs `email` in on the studio at `studioUrl` through the IdP's form; resolves to the jar holding the session. */
export async function signInByForm(studioUrl: string, email: string, password: string, returnTo = "/admin/"): Promise<CookieJar> {
  const jar = new CookieJar();
  const location = (response: Response, base: string) => new URL(response.headers.get("location") ?? "", base).href;
  const login = await jar.fetch(`${studioUrl}/auth/login?return=${encodeURIComponent(returnTo)}`);
  expect(login.status, "the studio sends the visitor to the IdP").toBe(303);
  const authorize = location(login, studioUrl);
  const toForm = await jar.fetch(authorize);
  expect(toForm.status, `the IdP's authorization endpoint: ${await toForm.clone().text()}`).toBe(303);
  const form = location(toForm, authorize);
  expect((await jar.fetch(form)).status, "the IdP's sign-in form").toBe(200);
  const posted = await jar.fetch(`${form}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login: email, password }).toString(),
  });
  expect(posted.status, `the IdP takes the password: ${await posted.clone().text()}`).toBe(303);
  // The IdP resumes the authorization, then sends the browser back to the studio with a code.
  let next = location(posted, form);
  for (let hop = 0; hop < 5 && !next.startsWith(`${studioUrl}/`); hop++) {
    const resumed = await jar.fetch(next);
    expect([302, 303], `the IdP on ${next}: ${await resumed.clone().text()}`).toContain(resumed.status);
    next = location(resumed, next);
  }
  expect(new URL(next).pathname, "the IdP's redirect back").toBe("/auth/callback");
  const callback = await jar.fetch(next);
  expect(callback.status, `the studio's callback: ${await callback.clone().text()}`).toBe(303);
  expect(callback.headers.get("location")).toBe(returnTo);
  return jar;
}
