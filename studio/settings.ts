/**
 * How the studio runs, from the environment. `STUDIO_MODE` unset or `loopback`: one developer on
 * 127.0.0.1, as `npm run studio` always ran. `STUDIO_MODE=server`: the firm's shared studio behind its
 * single sign-on; it refuses to start, with one sentence naming what is missing, without its public
 * address, its OpenID client and the firm's git remote. Every variable is documented in studio/README.md.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { git, StudioRefusal } from "./git.ts";
import { DEFAULT_TIME_ZONE, isTimeZone } from "../lib/approval/reviews.ts";

export interface GroupNames {
  /** The ID token claim that lists the user's groups (`groups`; Entra app roles: `roles`). */
  claim: string;
  editors: string;
  principals: string;
  /** Compliance: reads the records and follows reviews; edits and decides nothing. */
  compliance: string;
}

export interface ServerSettings {
  mode: "server";
  /** Where browsers reach the studio (https, or http on loopback): redirect URI, Host and Origin checks. */
  publicUrl: URL;
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** The firm's git remote (URL or path): where Publish pushes `main`. */
  remote: string;
  /** Where the studio keeps its clone of the remote (and so the workflow board) across restarts. */
  stateDir: string;
  host: string;
  port: number;
  tls?: { cert: Buffer; key: Buffer };
  groups: GroupNames;
  /** Session timeouts and how recent a sign-in must be to approve, in milliseconds. */
  idleMs: number;
  maxMs: number;
  freshMs: number;
  /** Warm the preview builds' worker as the studio starts (STUDIO_WARM_BUILDS, on unless `0`; decision 0054). */
  warmBuilds?: boolean;
  /** The firm's time zone, in which a principal's "Publish at" is given and shown (STUDIO_TIME_ZONE; decision 0057). */
  timeZone: string;
  /** The studio's clock for schedules and due dates: the system's, unless a test moves it. */
  clock?: () => Date;
}

export interface LoopbackSettings {
  mode: "loopback";
  port: number;
}

export type Settings = ServerSettings | LoopbackSettings;

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);
export const isLoopbackUrl = (url: URL) => LOOPBACK.has(url.hostname);

const minutes = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const value = env[name] === undefined ? fallback : Number(env[name]);
  if (!Number.isFinite(value) || value <= 0) throw new StudioRefusal(`${name} must be a positive number of minutes, not "${env[name]}".`);
  return value * 60_000;
};

/** An https URL, or http on a loopback address (tests and the demo); otherwise a refusal naming the variable. */
function secureUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StudioRefusal(`${name} must be a URL (https://…), not "${value}".`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackUrl(url))) return url;
  throw new StudioRefusal(`${name} must be an https:// URL (http is accepted only on 127.0.0.1, ::1 or localhost), not "${value}".`);
}

/** The firm's remote: STUDIO_GIT_REMOTE, or the project checkout's origin; undefined when neither is set. */
function remoteOf(env: NodeJS.ProcessEnv, project: string): string | undefined {
  if (env.STUDIO_GIT_REMOTE) return env.STUDIO_GIT_REMOTE;
  try {
    return git(project, "remote", "get-url", "origin") || undefined;
  } catch {
    return undefined;
  }
}

/** STUDIO_TIME_ZONE, an IANA zone (America/New_York by default). */
function timeZoneOf(env: NodeJS.ProcessEnv): string {
  const zone = env.STUDIO_TIME_ZONE ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(zone) || (!zone.includes("/") && zone !== "UTC"))
    throw new StudioRefusal(`STUDIO_TIME_ZONE must be a time zone of the IANA database (America/New_York, Europe/London), not "${zone}".`);
  return zone;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv, project: string): Settings {
  const mode = env.STUDIO_MODE ?? "loopback";
  if (mode === "loopback") return { mode, port: env.PORT === undefined ? 4323 : Number(env.PORT) };
  if (mode !== "server") throw new StudioRefusal(`STUDIO_MODE must be loopback or server, not "${mode}".`);
  const remote = remoteOf(env, project);
  const required = ["STUDIO_PUBLIC_URL", "OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;
  const missing: string[] = required.filter((name) => !env[name]);
  if (!remote) missing.push("STUDIO_GIT_REMOTE (or an origin remote in the project checkout)");
  if (missing.length)
    throw new StudioRefusal(
      `The studio in server mode needs ${missing.join(", ")}: set ${missing.length === 1 ? "it" : "them"} (studio/README.md lists every variable).`,
    );
  const remoteUrl = /^[a-z][a-z\d+.-]*:\/\//i.test(remote!) ? new URL(remote!) : undefined;
  if (remoteUrl?.protocol === "http:" && !isLoopbackUrl(remoteUrl))
    throw new StudioRefusal(`STUDIO_GIT_REMOTE must not be plain http:// except on a loopback address: use https://, ssh or a path.`);
  const publicUrl = secureUrl("STUDIO_PUBLIC_URL", env.STUDIO_PUBLIC_URL!);
  if (publicUrl.pathname !== "/" || publicUrl.search || publicUrl.hash)
    throw new StudioRefusal(
      `STUDIO_PUBLIC_URL must be the studio's own origin, with no path (https://studio.firm.example), not "${env.STUDIO_PUBLIC_URL}".`,
    );
  if (Boolean(env.STUDIO_TLS_CERT) !== Boolean(env.STUDIO_TLS_KEY))
    throw new StudioRefusal("STUDIO_TLS_CERT and STUDIO_TLS_KEY go together: set both (PEM files) or neither (a TLS proxy in front).");
  return {
    mode,
    publicUrl,
    issuer: secureUrl("OIDC_ISSUER", env.OIDC_ISSUER!),
    clientId: env.OIDC_CLIENT_ID!,
    clientSecret: env.OIDC_CLIENT_SECRET!,
    remote: remote!,
    stateDir: env.STUDIO_STATE_DIR ? resolve(env.STUDIO_STATE_DIR) : join(project, ".studio", "server"),
    host: env.HOST ?? "127.0.0.1",
    port: env.PORT === undefined ? 4323 : Number(env.PORT),
    tls: env.STUDIO_TLS_CERT ? { cert: readFileSync(env.STUDIO_TLS_CERT), key: readFileSync(env.STUDIO_TLS_KEY!) } : undefined,
    groups: {
      claim: env.STUDIO_GROUPS_CLAIM ?? "groups",
      editors: env.STUDIO_EDITOR_GROUP ?? "studio-editors",
      principals: env.STUDIO_PRINCIPAL_GROUP ?? "studio-principals",
      compliance: env.STUDIO_COMPLIANCE_GROUP ?? "studio-compliance",
    },
    idleMs: minutes(env, "STUDIO_SESSION_IDLE_MINUTES", 30),
    maxMs: minutes(env, "STUDIO_SESSION_MAX_MINUTES", 600),
    freshMs: minutes(env, "STUDIO_FRESH_SIGNIN_MINUTES", 10),
    warmBuilds: env.STUDIO_WARM_BUILDS !== "0",
    timeZone: timeZoneOf(env),
  };
}
