/**
 * The studio in server mode with everything it talks to, on this machine only: the demo's OpenID
 * provider (idp.ts) and a git host (git-host.ts) whose `main` starts as the project's. `npm run
 * studio:demo`, the studio's tests, its benchmark and its screenshots start it alike.
 */
import { join } from "node:path";
import { startDemoIdp, type DemoIdp } from "./idp.ts";
import { startGitHost, STUDIO_ACCOUNT, type GitHost } from "./git-host.ts";
import { startStudio, type RunningStudio } from "../../studio/start.ts";
import type { ServerSettings } from "../../studio/settings.ts";

export interface TeamStudio {
  studio: RunningStudio;
  idp: DemoIdp;
  host: GitHost;
  /** The studio's address. */
  url: string;
  /**
   * Stops the studio alone and starts it again on the same address and state (sessions end; the board
   * stays); with `stateDir`, on another state directory (an empty one: a studio whose disk was lost);
   * `whileStopped` runs between the stop and the start.
   */
  restart(options?: { stateDir?: string; whileStopped?: () => void }): Promise<void>;
  stop(): Promise<void>;
}

export interface TeamOptions {
  /** The checkout the studio runs from (its main seeds the git host). */
  project: string;
  /** A folder of the demo's own: the git host's repository and the studio's state. */
  folder: string;
  port?: number;
  /** Overrides of the server settings (timeouts, group names). */
  settings?: Partial<ServerSettings>;
}

export async function startTeamStudio({ project, folder, port = 0, settings }: TeamOptions): Promise<TeamStudio> {
  const host = await startGitHost(project, join(folder, "host"));
  const idp = await startDemoIdp();
  let studio: RunningStudio;
  let base: ServerSettings;
  try {
    base = {
      mode: "server",
      // Replaced by the address the studio binds (below); http is accepted on loopback.
      publicUrl: new URL("http://127.0.0.1"),
      issuer: new URL(idp.issuer),
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      remote: host.urlFor(STUDIO_ACCOUNT),
      stateDir: join(folder, "studio"),
      host: "127.0.0.1",
      port,
      groups: { claim: "groups", editors: "studio-editors", principals: "studio-principals", compliance: "studio-compliance" },
      idleMs: 30 * 60_000,
      maxMs: 10 * 60 * 60_000,
      freshMs: 10 * 60_000,
      timeZone: "America/New_York",
      ...settings,
    };
    studio = await startStudio(base, project, (bound) => {
      const url = new URL(`http://127.0.0.1:${bound}`);
      // The IdP knows the studio's callback before anyone signs in.
      idp.register(url.origin);
      return url;
    });
  } catch (error) {
    await Promise.all([idp.stop(), host.stop()]);
    throw error;
  }
  const team: TeamStudio = {
    studio,
    idp,
    host,
    url: studio.url,
    async restart({ whileStopped, ...options } = {}) {
      await team.studio.stop();
      // Time that passes while the studio is down (a test moves the studio's clock).
      whileStopped?.();
      const settings = { ...base, ...options, port: Number(new URL(team.url).port) };
      team.studio = await startStudio(settings, project, () => new URL(team.url));
    },
    async stop() {
      await team.studio.stop();
      await Promise.all([idp.stop(), host.stop()]);
    },
  };
  return team;
}
