/**
 * The workflow kept on the firm's git host (server mode; decision 0038), as Decap's own GitHub backend
 * keeps a branch and a labelled pull request per entry: each entry's branch `cms/<collection>/<slug>`,
 * its status ref (status-refs.ts) and the review log (`studio-log`) are pushed after every change. A
 * push that fails is tried again (after 5 s, doubling up to 5 minutes), and the board names the entries
 * the host does not have yet. A studio started from an empty state directory takes the board back from
 * the host (`adoptHostEntries`).
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { git, redact } from "../git.ts";
import { listEntries, setStatus } from "./entries.ts";
import { continueHostLog, HOST_LOG, LOG_BRANCH, logTip } from "./log.ts";
import { recordStatuses, refsUnder, STATUS_REFS, statusIn } from "./status-refs.ts";

const HOST_BRANCHES = "refs/remotes/origin/";
const HOST_STATUS_REFS = "refs/remotes/origin-studio/status/";
/** What the studio fetches from the host: its branches (main, the review log, the entries) and the statuses. */
const FETCH_REFSPECS = ["+refs/heads/*:refs/remotes/origin/*", "+refs/studio/*:refs/remotes/origin-studio/*"];
const NO_REF = "0".repeat(40);
/** A push or fetch that hangs (a host that takes the connection and says nothing) is ended after this. */
const REMOTE_TIMEOUT_MS = 120_000;
const FIRST_RETRY_MS = 5_000;
const LAST_RETRY_MS = 5 * 60_000;

/** git talking to the host: without blocking the process, killed after `timeout` ms; rejects with git's own words. */
const remoteGit = (repo: string, args: string[], timeout: number, env?: NodeJS.ProcessEnv) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      "git",
      args,
      { cwd: repo, encoding: "utf8", timeout, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024, env },
      (error, stdout, stderr) =>
        error ? reject(Object.assign(new Error(stderr.trim() || error.message), { stderr })) : resolve(stdout.trim()),
    ),
  );

/** The last of each repository's turns with the host (inTurn). */
const turns = new Map<string, Promise<unknown>>();

/**
 * Runs `task` once every task given before it for the same `key` has settled, whether it succeeded or
 * failed: one at a time per key, in the order given; tasks of other keys run meanwhile.
 */
export function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (turns.get(key) ?? Promise.resolve()).then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turns.set(key, settled);
  void settled.then(() => turns.get(key) === settled && turns.delete(key));
  return run;
}

/**
 * git talking to the host: without blocking the process, bounded in time; rejects with git's own words.
 * One at a time per repository: a fetch and a push both write the host's refs as the clone keeps them
 * (refs/remotes/…), and two at once fail on git's ref locks ("cannot lock ref … is at … but expected
 * …"), which the studio would take for a host it cannot reach (a scheduled publish's check did, and
 * waited 30 s to try again).
 */
export const gitRemote = (repo: string, ...args: string[]) => inTurn(resolve(repo), () => remoteGit(repo, args, REMOTE_TIMEOUT_MS));

/** git's complaint in one line for the studio's log, without a password the remote's URL may carry. */
export const gitComplaint = (error: unknown) =>
  redact(
    String((error as Error).message ?? error)
      .split("\n")
      .filter((line) => line.trim())
      .slice(0, 3)
      .join(" / "),
  );

/**
 * Whether the host answers the studio now (its readiness, decision 0052): it is asked for `main`'s ref
 * alone (protocol v2 lists only the refs asked for), within `timeout` ms, after which git is killed, and
 * never waits for a person to type a password. Rejects with git's complaint, without a password.
 */
export const askHost = (repo: string, timeout: number) =>
  remoteGit(repo, ["ls-remote", "--quiet", "origin", "refs/heads/main"], timeout, { ...process.env, GIT_TERMINAL_PROMPT: "0" }).then(
    () => undefined,
    (error: unknown) => {
      throw new Error(gitComplaint(error));
    },
  );

/** The clone fetches what the studio keeps on the host; pushing then keeps its copies of the host's refs current. */
export function configureHostRefs(repo: string) {
  git(repo, "config", "--replace-all", "remote.origin.fetch", FETCH_REFSPECS[0]!);
  for (const spec of FETCH_REFSPECS.slice(1)) git(repo, "config", "--add", "remote.origin.fetch", spec);
}

/** Everything the studio keeps on the host, as the host has it now (refs it no longer has are dropped). */
export const fetchHost = (repo: string) => gitRemote(repo, "fetch", "--quiet", "--prune", "origin");

/** The entries the host had when last fetched or pushed, by branch. */
export const hostEntries = (repo: string) =>
  new Set([...refsUnder(repo, `${HOST_BRANCHES}cms/`).keys()].map((ref) => ref.slice(HOST_BRANCHES.length)));

/** Whether the host had the status ref of `branch` when last fetched or pushed. */
export const hostHasStatus = (repo: string, branch: string) => refsUnder(repo, `${HOST_STATUS_REFS}${branch}`).size > 0;

/**
 * After a fetch: the host's entries the studio did not know (`known`: those it had seen on the host
 * before the fetch; none for a new clone) join the board, each with its status. An entry the studio
 * had seen on the host and no longer has was published or withdrawn here: its deletion is pushed,
 * it is not taken back. The log continues the host's.
 */
export function adoptHostEntries(repo: string, known: Set<string>): string[] {
  const statuses = refsUnder(repo, HOST_STATUS_REFS);
  const local = new Set(listEntries(repo).map((e) => e.branch));
  const adopted: string[] = [];
  for (const [ref, head] of refsUnder(repo, `${HOST_BRANCHES}cms/`)) {
    const branch = ref.slice(HOST_BRANCHES.length);
    if (local.has(branch) || known.has(branch)) continue;
    git(repo, "update-ref", `refs/heads/${branch}`, head, NO_REF);
    const status = statuses.get(`${HOST_STATUS_REFS}${branch}`);
    setStatus(repo, branch, status ? statusIn(repo, status) : "draft");
    if (status) git(repo, "update-ref", `${STATUS_REFS}${branch}`, status);
    adopted.push(branch);
  }
  continueHostLog(repo);
  return adopted;
}

export interface NotOnHost {
  /** Entries whose draft or status the host does not have yet, by branch. */
  entries: Set<string>;
  /** Events of the review log the host does not have yet. */
  events: number;
}

/** Pushes the workflow to the firm's git host, one push at a time, and tries again while one fails. */
export class HostSync {
  readonly repo: string;
  #queue: Promise<unknown> = Promise.resolve();
  #timer?: NodeJS.Timeout;
  #delay = FIRST_RETRY_MS;
  #closed = false;

  constructor(repo: string) {
    this.repo = repo;
  }

  /** Work with the host, one at a time: a background push never runs inside a publish's. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Records the entries' statuses in their refs (in the studio's turn, after a change to the board). */
  record() {
    recordStatuses(this.repo);
  }

  /** Pushes what the host lacks; resolves either way (a failure is logged and tried again later). */
  push(): Promise<void> {
    return this.exclusive(() => this.#push());
  }

  /** The refs the host lacks, as push refspecs (a deletion for an entry gone here). */
  #refspecs(): string[] {
    const { repo } = this;
    const specs: string[] = [];
    const pairs: Array<[string, string]> = [
      ["refs/heads/cms/", `${HOST_BRANCHES}cms/`],
      [STATUS_REFS, HOST_STATUS_REFS],
    ];
    for (const [mine, theirs] of pairs) {
      const local = refsUnder(repo, mine);
      const host = refsUnder(repo, theirs);
      const names = new Set([
        ...[...local.keys()].map((r) => r.slice(mine.length)),
        ...[...host.keys()].map((r) => r.slice(theirs.length)),
      ]);
      for (const name of names) {
        const [here, there] = [local.get(`${mine}${name}`), host.get(`${theirs}${name}`)];
        if (here !== there) specs.push(here ? `+${mine}${name}:${mine}${name}` : `:${mine}${name}`);
      }
    }
    const log = logTip(repo);
    if (log && log !== logTip(repo, HOST_LOG)) specs.push(`refs/heads/${LOG_BRANCH}:refs/heads/${LOG_BRANCH}`);
    return specs;
  }

  async #push(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#closed) return;
    try {
      let specs = this.#refspecs();
      if (specs.length === 0) return void (this.#delay = FIRST_RETRY_MS);
      try {
        await gitRemote(this.repo, "push", "--quiet", "origin", ...specs);
      } catch (error) {
        // The host's log moved past ours (another copy of the studio wrote to it): ours follows it, then again.
        if (!/non-fast-forward|fetch first|rejected/.test(String((error as Error).message))) throw error;
        await fetchHost(this.repo);
        continueHostLog(this.repo);
        specs = this.#refspecs();
        if (specs.length) await gitRemote(this.repo, "push", "--quiet", "origin", ...specs);
      }
      this.#delay = FIRST_RETRY_MS;
    } catch (error) {
      if (this.#closed) return;
      console.error(
        `studio: the firm's git host did not take the workflow's latest changes (${gitComplaint(error)}); trying again in ${this.#delay / 1000} s`,
      );
      this.#timer = setTimeout(() => void this.push(), this.#delay);
      this.#timer.unref();
      this.#delay = Math.min(this.#delay * 2, LAST_RETRY_MS);
    }
  }

  /** What the host does not have yet (the board says so). */
  notOnHost(): NotOnHost {
    const { repo } = this;
    const entries = new Set<string>();
    // Every ref compared, the log's and the host's log's included, in one git call: the board asks on every visit.
    const refs = refsUnder(repo, HOST_BRANCHES, HOST_STATUS_REFS, STATUS_REFS, `refs/heads/${LOG_BRANCH}`);
    for (const entry of listEntries(repo)) {
      const statusHere = refs.get(`${STATUS_REFS}${entry.branch}`);
      if (refs.get(`${HOST_BRANCHES}${entry.branch}`) !== entry.head || refs.get(`${HOST_STATUS_REFS}${entry.branch}`) !== statusHere)
        entries.add(entry.branch);
    }
    const log = refs.get(`refs/heads/${LOG_BRANCH}`);
    const hostLog = refs.get(HOST_LOG);
    const events = !log || log === hostLog ? 0 : Number(git(repo, "rev-list", "--count", log, ...(hostLog ? [`^${hostLog}`] : [])));
    return { entries, events };
  }

  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
  }
}
