/**
 * A replay's pass (decision 0047): the capability a capture's page puts in the address of its replay,
 * because the replay's frame, an opaque origin, sends no cookie. Unguessable (32 random bytes), bound
 * to the signed-in person's session, to one capture and to one view of it; good for an hour and never
 * longer than its session: a pass whose session signed out, timed out or lost the records' role opens
 * nothing. Kept in the studio's process, as the sessions are.
 */
import { randomBytes } from "node:crypto";
import { readsRecords } from "../auth/roles.ts";
import type { Session } from "../auth/sessions.ts";
import type { Overlays } from "./replay-overlays.ts";

interface Pass {
  session: string;
  capture: string;
  overlays: Overlays;
  expires: number;
}

export const PASS_LIFETIME_MS = 60 * 60_000;

export class ReplayPasses {
  readonly #passes = new Map<string, Pass>();
  readonly #lifetimeMs: number;
  readonly #now: () => number;

  constructor(options: { lifetimeMs?: number; now?: () => number } = {}) {
    this.#lifetimeMs = options.lifetimeMs ?? PASS_LIFETIME_MS;
    this.#now = options.now ?? Date.now;
  }

  /** A pass for one view of one capture; the one already given while it has more than half its life left. */
  issue(session: Session, capture: string, overlays: Overlays): string {
    const now = this.#now();
    for (const [token, pass] of this.#passes) {
      if (pass.expires <= now) this.#passes.delete(token);
      else if (
        pass.session === session.id &&
        pass.capture === capture &&
        pass.overlays === overlays &&
        pass.expires - now > this.#lifetimeMs / 2
      )
        return token;
    }
    const token = randomBytes(32).toString("base64url");
    this.#passes.set(token, { session: session.id, capture, overlays, expires: now + this.#lifetimeMs });
    return token;
  }

  /** The session and view a pass opens for that capture, while the pass and its session live; undefined otherwise. */
  open(
    token: string,
    capture: string,
    sessionById: (id: string) => Session | undefined,
  ): { session: Session; overlays: Overlays } | undefined {
    const pass = this.#passes.get(token);
    if (!pass || pass.capture !== capture) return undefined;
    const session = pass.expires > this.#now() ? sessionById(pass.session) : undefined;
    if (!session || !readsRecords(session.actor)) {
      this.#passes.delete(token);
      return undefined;
    }
    return { session, overlays: pass.overlays };
  }

  get size() {
    return this.#passes.size;
  }
}
