/**
 * `GET /healthz` and `GET /readyz`, for a supervisor or a load balancer, answered before any sign-in or
 * Host check. `/healthz`: the process answers. `/readyz`: the parts the studio needs answer now: its
 * clone of the firm's repository, decap-server on its socket, the sign-in service's discovery document
 * and the records store; 503 naming the parts that do not. In server mode it also names the firm's git
 * host, `unreachable` while it does not answer, and stays 200: edits go on and their pushes wait
 * (decision 0052). Neither says more than the parts' names and ok, failing or unreachable: no address,
 * path, version or error. Why a part fails goes to the log, once when it starts failing and once when
 * it is back.
 *
 * Every look asks the parts again, at most once a second however often it is asked (an unauthenticated
 * route must not let anyone make the studio call its IdP, its store and its git host at will), and each
 * part within a bounded time (a git process asking the host is killed at its end).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Hono } from "hono";
import { logLine } from "../logging.ts";

/** Asks a part: resolves when it answers, rejects (with the reason for the log) when not. */
type Ask = () => Promise<unknown>;
/**
 * What /readyz asks, by part: a part the studio needs (`failing` when it does not answer: 503), or one
 * it goes on without for a while (`unreachable` when it does not answer: the studio stays ready).
 */
export type ReadinessChecks = Record<string, Ask | { ask: Ask; down: "unreachable" }>;
type PartState = "ok" | "failing" | "unreachable";

/** A part that has not answered in this long is failing (a load balancer's own timeout is usually 5 s or more). */
export const CHECK_TIMEOUT_MS = 3_000;
/** Answers within this long of a look are reused. */
const FRESH_MS = 1_000;

const within = <T>(task: () => Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    task()
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });

/** The studio's parts as /readyz asks them. */
export function studioChecks(parts: {
  repo: string;
  /** decap-server's own answer to a request that touches no branch. */
  decap: () => Promise<{ status: number }>;
  /** The IdP's issuer (server mode; loopback has no sign-in service). */
  issuer?: URL;
  /** Whether the records store can be used (its own check: the folder, or the bucket and its Object Lock). */
  store: () => Promise<void>;
  /** Whether the firm's git host answers within the time given (server mode; loopback has none). */
  gitHost?: (timeoutMs: number) => Promise<void>;
}): ReadinessChecks {
  const checks: ReadinessChecks = {
    // Read from the files (no git process: a probe must stay cheap on a loaded host).
    clone: async () => {
      const head = await readFile(join(parts.repo, ".git", "HEAD"), "utf8");
      if (!/^(ref: refs\/|[0-9a-f]{40})/.test(head)) throw new Error("the clone's .git/HEAD is not a git HEAD");
      if (!existsSync(join(parts.repo, ".git", "objects"))) throw new Error("the clone has no objects folder");
    },
    "decap-server": async () => {
      const { status } = await parts.decap();
      if (status !== 200) throw new Error(`decap-server answered ${status}`);
    },
  };
  if (parts.issuer) {
    const discovery = new URL(".well-known/openid-configuration", parts.issuer.href.endsWith("/") ? parts.issuer : `${parts.issuer.href}/`);
    checks["sign-in service"] = async () => {
      const answer = await fetch(discovery, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), redirect: "error" });
      if (!answer.ok) throw new Error(`its discovery document answered ${answer.status}`);
      const issuer = ((await answer.json()) as { issuer?: unknown }).issuer;
      if (typeof issuer !== "string") throw new Error("its discovery document names no issuer");
    };
  }
  checks["records store"] = parts.store;
  const { gitHost } = parts;
  // The studio works on its clone while the host is away (decision 0038: pushes are tried again), so it stays ready.
  if (gitHost) checks["git host"] = { ask: () => gitHost(CHECK_TIMEOUT_MS), down: "unreachable" };
  return checks;
}

export function healthRoutes(checks: ReadinessChecks) {
  const app = new Hono();
  const failing = new Map<string, string>();
  let last: { at: number; answer: Promise<Record<string, PartState>> } | undefined;

  async function look(): Promise<Record<string, PartState>> {
    const names = Object.keys(checks);
    const outcomes = await Promise.allSettled(
      names.map((name) => {
        const check = checks[name]!;
        return within(typeof check === "function" ? check : check.ask, CHECK_TIMEOUT_MS);
      }),
    );
    const parts: Record<string, PartState> = {};
    outcomes.forEach((outcome, i) => {
      const name = names[i]!;
      const check = checks[name]!;
      parts[name] = outcome.status === "fulfilled" ? "ok" : typeof check === "function" ? "failing" : check.down;
      if (outcome.status === "rejected") {
        const reason = (outcome.reason as Error)?.message?.split("\n")[0] ?? String(outcome.reason);
        if (!failing.has(name)) logLine("part failing", { part: name, reason });
        failing.set(name, reason);
      } else if (failing.delete(name)) logLine("part back", { part: name });
    });
    return parts;
  }

  const json = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  app.get("/healthz", () => new Response(`${JSON.stringify({ status: "ok" })}\n`, { headers: json }));
  app.get("/readyz", async () => {
    const now = Date.now();
    if (!last || now - last.at >= FRESH_MS) last = { at: now, answer: look() };
    const parts = await last.answer;
    const down = Object.keys(parts).filter((name) => parts[name] === "failing");
    const body = down.length ? { status: "not ready", failing: down, parts } : { status: "ready", parts };
    return new Response(`${JSON.stringify(body)}\n`, { status: down.length ? 503 : 200, headers: json });
  });
  return app;
}
