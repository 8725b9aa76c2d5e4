/** How the studio reads its environment: the loopback default, and the server mode's refusals, one sentence each. */
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root.ts";
import { StudioRefusal } from "../../studio/git.ts";
import { settingsFromEnv } from "../../studio/settings.ts";

const SERVER = {
  STUDIO_MODE: "server",
  STUDIO_PUBLIC_URL: "https://studio.firm.example",
  OIDC_ISSUER: "https://login.firm.example",
  OIDC_CLIENT_ID: "content-studio",
  OIDC_CLIENT_SECRET: "not-a-real-secret",
  STUDIO_GIT_REMOTE: "git@git.firm.example:web/site.git",
};
const refusal = (env: Record<string, string | undefined>) => {
  try {
    settingsFromEnv(env, projectRoot);
  } catch (error) {
    expect(error).toBeInstanceOf(StudioRefusal);
    return (error as Error).message;
  }
  throw new Error("no refusal");
};

describe("the studio's settings", () => {
  it("runs on loopback for one developer by default, on 4323 or PORT", () => {
    expect(settingsFromEnv({}, projectRoot)).toEqual({ mode: "loopback", port: 4323 });
    expect(settingsFromEnv({ PORT: "0" }, projectRoot)).toEqual({ mode: "loopback", port: 0 });
  });

  it("reads the server mode's settings, with the documented defaults", () => {
    const settings = settingsFromEnv({ ...SERVER, HOST: "0.0.0.0", PORT: "8443" }, projectRoot);
    expect(settings).toMatchObject({
      mode: "server",
      remote: SERVER.STUDIO_GIT_REMOTE,
      host: "0.0.0.0",
      port: 8443,
      groups: { claim: "groups", editors: "studio-editors", principals: "studio-principals", compliance: "studio-compliance" },
      idleMs: 30 * 60_000,
      maxMs: 600 * 60_000,
      freshMs: 10 * 60_000,
      timeZone: "America/New_York",
    });
    expect(settingsFromEnv({ ...SERVER, STUDIO_TIME_ZONE: "Europe/London" }, projectRoot)).toMatchObject({ timeZone: "Europe/London" });
    expect(settings.mode === "server" && settings.publicUrl.href).toBe("https://studio.firm.example/");
  });

  it.each([
    ["STUDIO_PUBLIC_URL", /needs STUDIO_PUBLIC_URL: set it/],
    ["OIDC_ISSUER", /needs OIDC_ISSUER: set it/],
    ["OIDC_CLIENT_ID", /needs OIDC_CLIENT_ID: set it/],
    ["OIDC_CLIENT_SECRET", /needs OIDC_CLIENT_SECRET: set it/],
  ])("refuses to start without %s, naming it", (name, message) => {
    expect(refusal({ ...SERVER, [name]: undefined })).toMatch(message);
  });

  it("names every missing variable at once, the git remote included when the checkout has no origin", () => {
    const message = refusal({ STUDIO_MODE: "server" });
    expect(message).toMatch(/^The studio in server mode needs STUDIO_PUBLIC_URL, OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET/);
    expect(message.split(". ").length).toBe(1);
  });

  it.each([
    ["an http public address", { STUDIO_PUBLIC_URL: "http://studio.firm.example" }, /STUDIO_PUBLIC_URL must be an https:\/\/ URL/],
    ["an http issuer", { OIDC_ISSUER: "http://login.firm.example" }, /OIDC_ISSUER must be an https:\/\/ URL/],
    ["a public address that is no URL", { STUDIO_PUBLIC_URL: "studio" }, /STUDIO_PUBLIC_URL must be a URL/],
    [
      "a public address with a path",
      { STUDIO_PUBLIC_URL: "https://firm.example/studio" },
      /STUDIO_PUBLIC_URL must be the studio's own origin/,
    ],
    [
      "an http git remote off loopback",
      { STUDIO_GIT_REMOTE: "http://git.firm.example/site.git" },
      /STUDIO_GIT_REMOTE must not be plain http/,
    ],
    ["a certificate without its key", { STUDIO_TLS_CERT: "/etc/ssl/studio.pem" }, /STUDIO_TLS_CERT and STUDIO_TLS_KEY go together/],
    ["a mode it does not know", { STUDIO_MODE: "cloud" }, /STUDIO_MODE must be loopback or server/],
    ["a time zone it does not know", { STUDIO_TIME_ZONE: "Eastern" }, /STUDIO_TIME_ZONE must be a time zone of the IANA database/],
    ["an abbreviation for a time zone", { STUDIO_TIME_ZONE: "EST" }, /STUDIO_TIME_ZONE must be a time zone of the IANA database/],
    ["a timeout that is no number", { STUDIO_FRESH_SIGNIN_MINUTES: "soon" }, /STUDIO_FRESH_SIGNIN_MINUTES must be a positive number/],
  ])("refuses %s", (_, change, message) => {
    expect(refusal({ ...SERVER, ...change })).toMatch(message);
  });

  it("accepts http only on a loopback address (tests and the demo)", () => {
    for (const host of ["127.0.0.1:4324", "localhost:4324", "[::1]:4324"]) {
      const settings = settingsFromEnv(
        { ...SERVER, STUDIO_PUBLIC_URL: `http://${host}`, OIDC_ISSUER: `http://${host.replace("4324", "9000")}` },
        projectRoot,
      );
      expect(settings.mode).toBe("server");
    }
  });
});
