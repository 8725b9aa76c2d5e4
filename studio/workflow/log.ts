/**
 * The review log: every decision and step of the workflow as one JSON line (who, when, which entry and
 * commit, the comment), and every records export for an examiner (who, what, when), appended to `events.jsonl` on the branch `studio-log` of the studio's clone,
 * one commit per event, and pushed to the firm's git host in server mode. It outlives the entries'
 * branches (deleted when published or withdrawn), so rejections and requests for changes stay on record.
 */
import { execFileSync } from "node:child_process";
import { git, STUDIO_COMMITTER } from "../git.ts";
import type { Role } from "../auth/sessions.ts";
import { logLine } from "../logging.ts";

export const LOG_BRANCH = "studio-log";
const LOG_FILE = "events.jsonl";

/** `discarded`: a draft given up before publishing (its branch deleted); `withdrawn` is what logs before issue 49 called it. */
export type EventKind = "submitted" | "changes_requested" | "rejected" | "approved" | "published" | "withdrawn" | "discarded" | "exported";

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
  /** The sign-in behind an approval: when the IdP checked the credentials, and a digest of the session. */
  auth?: { authTime: string; session: string };
}

function run(repo: string, args: string[], input?: string, env: NodeJS.ProcessEnv = {}) {
  return execFileSync("git", args, { cwd: repo, input, encoding: "utf8", env: { ...process.env, ...env } }).trim();
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

/** Appends one event as a commit on the log branch (compare-and-swap: a concurrent append fails, never lost silently). */
export function appendEvent(repo: string, event: ReviewEvent): string {
  let parent = "";
  let text = "";
  try {
    parent = git(repo, "rev-parse", "--verify", "--quiet", `refs/heads/${LOG_BRANCH}`);
    text = `${git(repo, "show", `${parent}:${LOG_FILE}`)}\n`;
  } catch {
    // The first event: the branch is made with it.
  }
  const blob = run(repo, ["hash-object", "-w", "--stdin"], `${text}${JSON.stringify(event)}\n`);
  const tree = run(repo, ["mktree"], `100644 blob ${blob}\t${LOG_FILE}\n`);
  const identity = {
    GIT_AUTHOR_NAME: event.actor.name,
    GIT_AUTHOR_EMAIL: event.actor.email,
    GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
    GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
  };
  const message = `${event.event}: ${event.entry.name}\n\n${event.comment ?? ""}`.trim();
  const commit = run(repo, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], undefined, identity);
  run(repo, ["update-ref", `refs/heads/${LOG_BRANCH}`, commit, parent || "0".repeat(40)]);
  logLine("workflow", {
    event: event.event,
    entry: event.entry.branch,
    commit: event.commit,
    role: event.actor.role,
    subject: event.actor.subject,
  });
  return commit;
}
