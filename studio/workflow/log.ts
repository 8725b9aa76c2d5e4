/**
 * The review log: every decision and step of the workflow as one JSON line (who, when, which entry and
 * commit, the comment), and every records export for an examiner (who, what, when), appended to `events.jsonl` on the branch `studio-log` of the studio's clone,
 * one commit per event, and pushed to the firm's git host in server mode. It outlives the entries'
 * branches (deleted when published or withdrawn), so rejections and requests for changes stay on record.
 */
import { git, STUDIO_COMMITTER } from "../git.ts";
import type { Role } from "../auth/sessions.ts";
import { logLine } from "../logging.ts";
import { runGit } from "../git-process/run.ts";

export const LOG_BRANCH = "studio-log";
const LOG_FILE = "events.jsonl";

/** `discarded`: a draft given up before publishing (its branch deleted); `withdrawn` is what logs before issue 49 called it. */
export type EventKind =
  | "submitted"
  | "changes_requested"
  | "rejected"
  | "approved"
  | "published"
  | "withdrawn"
  | "discarded"
  | "exported"
  /** A principal's "Reviewed, no change" of a page as published (decision 0056): `entry` names the page, `commit` the review's on main. */
  | "reviewed"
  /** A principal's schedule (issue 56): set with an approval (`approved` carries it) or moved (`scheduled`), cancelled (`unscheduled`). */
  | "scheduled"
  | "unscheduled"
  /** The moment came and nothing was published: the gate refused it (`comment` says why), or the studio was down and the principal chose to hold. */
  | "schedule_refused"
  | "schedule_held";

export interface LoggedActor {
  name: string;
  email: string;
  role: Role | "developer";
  issuer?: string;
  subject?: string;
  crd?: string;
  registration?: string;
}

export interface ReviewEvent {
  event: EventKind;
  /** ISO 8601, UTC. */
  at: string;
  entry: { collection: string; slug: string; branch: string; name: string };
  /** The branch commit the event concerns (reviewed, approved); for `published`, the commit now on main. */
  commit: string;
  actor: LoggedActor;
  comment?: string;
  pages?: Array<{ page: string; sha256: string }>;
  /** Who wrote the change (the editors' e-mails), and whether an approval met separation of duties. */
  authors?: string[];
  separation?: "ok" | "exception";
  selfApprovalException?: string;
  /** A records export for an examiner: what was asked for, which captures it holds, and the zip's SHA-256. */
  export?: { selection: string; captures: string[]; sha256: string; bytes: number };
  /** A schedule set, moved or carried out: the instant (UTC), the firm's zone, hold-if-late; a publish's lateness. */
  schedule?: { at: string; timeZone: string; holdIfLate?: boolean };
  scheduled?: { at: string; timeZone: string; lateMs: number };
  /** The sign-in behind an approval: when the IdP checked the credentials, and a digest of the session. */
  auth?: { authTime: string; session: string };
}

function run(repo: string, args: string[], input?: string, env: NodeJS.ProcessEnv = {}) {
  return runGit(args, { cwd: repo, input, env: { ...process.env, ...env } }).trim();
}

/** Every event, oldest first. */
export function readEvents(repo: string): ReviewEvent[] {
  let text: string;
  try {
    text = git(repo, "show", `refs/heads/${LOG_BRANCH}:${LOG_FILE}`);
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReviewEvent);
}

/** The events of an entry's current round: since its branch was last published or discarded. */
export function eventsOf(events: ReviewEvent[], branch: string): ReviewEvent[] {
  const own = events.filter((e) => e.entry.branch === branch);
  const closed = own.findLastIndex((e) => e.event === "published" || e.event === "withdrawn" || e.event === "discarded");
  return own.slice(closed + 1);
}

/** One event as a commit after `parent` (none: the log's first), not yet on any branch. */
export function eventCommit(repo: string, event: ReviewEvent, parent: string): string {
  const text = parent ? `${git(repo, "show", `${parent}:${LOG_FILE}`)}\n` : "";
  const blob = run(repo, ["hash-object", "-w", "--stdin"], `${text}${JSON.stringify(event)}\n`);
  const tree = run(repo, ["mktree"], `100644 blob ${blob}\t${LOG_FILE}\n`);
  const identity = {
    GIT_AUTHOR_NAME: event.actor.name,
    GIT_AUTHOR_EMAIL: event.actor.email,
    GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
    GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
  };
  const message = `${event.event}: ${event.entry.name}\n\n${event.comment ?? ""}`.trim();
  return run(repo, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], undefined, identity);
}

/** The log branch's commit, or "" before the first event. */
export function logTip(repo: string, ref = `refs/heads/${LOG_BRANCH}`): string {
  try {
    return git(repo, "rev-parse", "--verify", "--quiet", ref);
  } catch {
    return "";
  }
}

/** Moves the log branch from `from` to `to` (compare-and-swap: a concurrent append fails, never lost silently). */
export function moveLog(repo: string, to: string, from: string) {
  run(repo, ["update-ref", `refs/heads/${LOG_BRANCH}`, to, from || "0".repeat(40)]);
}

/** Appends one event as a commit on the log branch. */
export function appendEvent(repo: string, event: ReviewEvent): string {
  const parent = logTip(repo);
  const commit = eventCommit(repo, event, parent);
  moveLog(repo, commit, parent);
  logEvent(event);
  return commit;
}

/** The operator's JSON line of an event now in the log (appended here, or pushed with a publish). */
export function logEvent(event: ReviewEvent) {
  logLine("workflow", {
    event: event.event,
    entry: event.entry.branch,
    commit: event.commit,
    role: event.actor.role,
    subject: event.actor.subject,
  });
}

/** The host's copy of the log, as last fetched or pushed. */
export const HOST_LOG = `refs/remotes/origin/${LOG_BRANCH}`;

const eventsAt = (repo: string, commit: string) => git(repo, "show", `${commit}:${LOG_FILE}`).split("\n").filter(Boolean);

/**
 * Makes the studio's log continue the host's (server mode, after a fetch): taken from the host when
 * the studio has none or is behind; when the two diverged (a log begun afresh beside the host's),
 * the studio's events the host lacks are appended after the host's, in their order. Never a new root.
 */
export function continueHostLog(repo: string): void {
  const host = logTip(repo, HOST_LOG);
  const local = logTip(repo);
  if (!host || local === host) return;
  const isAncestor = (a: string, b: string) => {
    try {
      return (git(repo, "merge-base", "--is-ancestor", a, b), true);
    } catch {
      return false;
    }
  };
  if (local && isAncestor(host, local)) return;
  if (!local || isAncestor(local, host)) return moveLog(repo, host, local);
  const known = new Set(eventsAt(repo, host));
  let tip = host;
  const missing = eventsAt(repo, local).filter((line) => !known.has(line));
  for (const line of missing) tip = eventCommit(repo, JSON.parse(line) as ReviewEvent, tip);
  moveLog(repo, tip, local);
  console.error(
    `studio: the review log had diverged from the firm's git host; its ${missing.length} event(s) the host lacked now follow the host's`,
  );
}
