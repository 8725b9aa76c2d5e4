/** The studio's sign-in pieces on their own: who gets which role, sessions' timeouts, where a sign-in may return to. */
import { describe, expect, it } from "vitest";
import { parseRoster } from "../../lib/approval/roster.ts";
import { safeReturn } from "../../studio/auth/oidc.ts";
import { roleOf } from "../../studio/auth/roles.ts";
import { SessionStore, type Actor } from "../../studio/auth/sessions.ts";
import { LEE, PAT } from "../fixtures/roster/entries.ts";

const groups = { claim: "groups", editors: "studio-editors", principals: "studio-principals", compliance: "studio-compliance" };
const roster = parseRoster(JSON.stringify([PAT, LEE]));
const claims = (email: string, member: string[], verified = true) => ({ email, email_verified: verified, name: "Someone", groups: member });

describe("roles", () => {
  it.each([
    ["an editor", claims("erin@example.com", ["studio-editors"]), "editor"],
    ["a principal on the roster", claims("pat.example@example.com", ["studio-principals"]), "principal"],
    [
      "a principal on the roster, listed in both groups",
      claims("pat.example@example.com", ["studio-editors", "studio-principals"]),
      "principal",
    ],
    ["a member of the principals' group whose roster entry ended", claims("lee.former@example.com", ["studio-principals"]), "editor"],
    ["a member of the principals' group not on the roster", claims("sam@example.com", ["studio-principals"]), "editor"],
    ["a principal whose e-mail the IdP has not verified", claims("pat.example@example.com", ["studio-principals"], false), "editor"],
    ["an editor on the roster but not in the principals' group", claims("pat.example@example.com", ["studio-editors"]), "editor"],
    ["a compliance officer", claims("casey@example.com", ["studio-compliance"]), "compliance"],
    [
      "a compliance officer who is also in the editors' group",
      claims("casey@example.com", ["studio-editors", "studio-compliance"]),
      "compliance",
    ],
    [
      "a principal on the roster who is also in the compliance group",
      claims("pat.example@example.com", ["studio-principals", "studio-compliance"]),
      "principal",
    ],
  ])("%s", (_, token, role) => {
    expect(roleOf(token, groups, roster, "2026-11-23")).toMatchObject({ role });
  });

  it("refuses someone in none of the groups, and a sign-in without an e-mail, in one sentence", () => {
    expect(roleOf(claims("olive@example.com", ["staff"]), groups, roster, "2026-11-23")).toEqual({
      refused:
        "Your account (olive@example.com) is in none of the studio's groups (editors: studio-editors, principals: studio-principals, compliance: studio-compliance): ask the firm's IdP administrator for access.",
    });
    expect(roleOf({ groups: ["studio-editors"] }, groups, roster, "2026-11-23")).toMatchObject({
      refused: expect.stringMatching(/no e-mail address/),
    });
  });

  it("reads another claim when the IdP names roles there (Entra's app roles)", () => {
    const entra = { ...groups, claim: "roles" };
    expect(roleOf({ email: "erin@example.com", roles: ["studio-editors"] }, entra, roster, "2026-11-23")).toMatchObject({ role: "editor" });
  });
});

describe("sessions", () => {
  const actor: Actor = {
    issuer: "https://login.example",
    subject: "u1",
    email: "erin@example.com",
    name: "Erin",
    role: "editor",
    authTime: 0,
  };
  const store = (now: { t: number }) => new SessionStore({ idleMs: 30 * 60_000, maxMs: 10 * 3_600_000, now: () => now.t });

  it("ends a session left idle longer than the idle timeout", () => {
    const now = { t: 0 };
    const sessions = store(now);
    const { id } = sessions.create(actor);
    now.t = 29 * 60_000;
    expect(sessions.get(id)).toBeDefined();
    now.t += 31 * 60_000;
    expect(sessions.get(id)).toBeUndefined();
  });

  it("ends a busy session at the absolute timeout", () => {
    const now = { t: 0 };
    const sessions = store(now);
    const { id } = sessions.create(actor);
    for (now.t = 0; now.t < 10 * 3_600_000; now.t += 20 * 60_000) expect(sessions.get(id)).toBeDefined();
    now.t = 10 * 3_600_000 + 1;
    expect(sessions.get(id)).toBeUndefined();
  });

  it("gives each session its own id and form token, and ends one person's sessions at once", () => {
    const sessions = store({ t: 0 });
    const [a, b] = [sessions.create(actor), sessions.create(actor)];
    expect(new Set([a.id, b.id, a.csrf, b.csrf]).size).toBe(4);
    sessions.deleteFor(actor.issuer, actor.subject);
    expect([sessions.get(a.id), sessions.get(b.id)]).toEqual([undefined, undefined]);
  });
});

describe("where a sign-in returns", () => {
  it.each([
    ["/admin/review/landing/hero", "/admin/review/landing/hero"],
    ["/admin/?x=1#/collections", "/admin/?x=1#/collections"],
    ["https://attacker.example/", "/admin/"],
    ["//attacker.example/", "/admin/"],
    ["/\\attacker.example", "/admin/"],
    [undefined, "/admin/"],
  ])("%s → %s", (value, expected) => {
    expect(safeReturn(value)).toBe(expected);
  });
});
