/**
 * Sessions kept by the studio's process (a Map, no library): revocable at once, gone with a restart
 * (single sign-on brings the user back in one round trip). The browser holds only a random id, in a
 * `__Host-` cookie (Secure, HttpOnly, SameSite=Lax: the IdP's redirect back is a cross-site top-level
 * GET, which carries Lax cookies). Each session has an idle and an absolute timeout, and the
 * synchronizer token its forms carry.
 */
import { createHash, randomBytes } from "node:crypto";

export type Role = "editor" | "principal" | "compliance";

/** Who signed in, from the ID token, and what the studio made of it. */
export interface Actor {
  issuer: string;
  subject: string;
  email: string;
  name: string;
  role: Role;
  /** When the IdP last checked the user's credentials (ID token `auth_time`), epoch milliseconds. */
  authTime: number;
  /** Set by a sign-in the person asked for to approve ("Confirm it's you", prompt=login): approving needs one, recent. */
  confirmed?: boolean;
  /** One developer on loopback: no sign-in, every role (the loopback studio). */
  local?: boolean;
}

export interface Session {
  id: string;
  actor: Actor;
  /** The ID token, kept only as the hint for the IdP's sign-out. */
  idToken?: string;
  /** The synchronizer token every server-rendered form carries. */
  csrf: string;
  created: number;
  lastSeen: number;
  /** The outcome of the last form, shown once by the page the form redirects to. */
  flash?: { ok: boolean; text: string };
}

export const SESSION_COOKIE = "studio";
const token = () => randomBytes(32).toString("base64url");

/** A session's id as the review log may name it: its SHA-256, never the id itself. */
export const sessionDigest = (id: string) => createHash("sha256").update(id).digest("hex");

export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #maxMs: number;
  readonly #now: () => number;

  constructor(options: { idleMs: number; maxMs: number; now?: () => number }) {
    this.#idleMs = options.idleMs;
    this.#maxMs = options.maxMs;
    this.#now = options.now ?? Date.now;
  }

  create(actor: Actor, idToken?: string): Session {
    const now = this.#now();
    const session = { id: token(), actor, idToken, csrf: token(), created: now, lastSeen: now };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, its idle clock restarted; undefined (and forgotten) once either timeout passed. */
  get(id: string | undefined): Session | undefined {
    const session = this.peek(id);
    if (session) session.lastSeen = this.#now();
    return session;
  }

  /**
   * The live session with this id, its idle clock left as it is: for a replay's requests, which a page's
   * own scripts may make while nobody reads it (decision 0047).
   */
  peek(id: string | undefined): Session | undefined {
    const session = id ? this.#sessions.get(id) : undefined;
    if (!session) return undefined;
    const now = this.#now();
    if (now - session.lastSeen > this.#idleMs || now - session.created > this.#maxMs) {
      this.#sessions.delete(session.id);
      return undefined;
    }
    return session;
  }

  delete(id: string | undefined) {
    if (id) this.#sessions.delete(id);
  }

  /** Ends every session of one person (a new sign-in as them, or their access removed). */
  deleteFor(issuer: string, subject: string) {
    for (const [id, s] of this.#sessions) if (s.actor.issuer === issuer && s.actor.subject === subject) this.#sessions.delete(id);
  }

  get size() {
    return this.#sessions.size;
  }
}
