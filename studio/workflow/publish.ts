/**
 * Publishing an entry. The rule in both modes: every page whose text the merged result changes carries
 * a registered principal's approval (the build gate, asked first), and the branch still merges. Server
 * mode publishes to the firm's git host first: fetch `origin`, build the merge with git plumbing, run
 * the gate on it, push it to `origin/main`, and only then move the studio's `main`. A moved or
 * protected `origin` refuses the publish with one sentence, and nothing changes. Loopback mode merges
 * in the studio's clone (decap-server) and brings `main` into the project (git.ts).
 */
import { git, mergeConflict, STUDIO_COMMITTER, StudioRefusal } from "../git.ts";
import type { Actor } from "../auth/sessions.ts";
import { entryName, listEntries, STUDIO_EVENT_TRAILER, type Entry } from "./entries.ts";
import { pageChanges } from "./changes.ts";
import { pageTitles } from "./titles.ts";
import {
  appendEvent,
  logEvent,
  continueHostLog,
  eventCommit,
  LOG_BRANCH,
  logTip,
  moveLog,
  readEvents,
  type LoggedActor,
  type ReviewEvent,
} from "./log.ts";
import { fetchHost, gitComplaint, gitRemote, hostEntries, hostHasStatus, type HostSync } from "./host.ts";
import { recordStatuses, STATUS_REFS } from "./status-refs.ts";
import { momentWritten } from "../../lib/zoned-time.ts";
import { SCHEDULED_TRAILER } from "../../lib/records/approvals.ts";
import { runGit } from "../git-process/run.ts";

/** Why a revision may not be published: the pages its own ledger does not approve, named by title; null when all are. */
export async function unapprovedRefusal(root: string, repo: string, revision: string): Promise<string | null> {
  const changes = await pageChanges(root, repo, revision);
  if (changes.length === 0) return null;
  const titles = await pageTitles(root, repo, revision);
  const pages = changes.map((c) => `${titles(c.page)} (${c.reason === "new" ? "never approved" : "text changed"})`).join(", ");
  return `Not published: ${pages} ${changes.length === 1 ? "is" : "are"} not approved by a registered principal. Open the entry's review, where a principal approves it first.`;
}

/** Why the entry's branch may not be published now; null when it may. */
export async function publishRefusal(root: string, repo: string, branch: string): Promise<string | null> {
  return mergeConflict(repo, branch) ?? (await unapprovedRefusal(root, repo, branch));
}

/** git's refusal of a push, as one sentence for the publisher (git's own words go to the log). */
function pushRefusal(stderr: string): string {
  const remote = stderr
    .split("\n")
    .filter((line) => line.startsWith("remote:"))
    .map((line) => line.replace(/^remote:\s*/, "").trim())
    .filter((line) => line && !/^(error|warning|fatal):/.test(line))
    .join(" ");
  if (/non-fast-forward|fetch first|stale info/.test(stderr))
    return "Not published: main changed on the firm's git host while publishing; nothing changed here, so publish again.";
  if (/pre-receive hook declined|remote rejected|protected/.test(stderr))
    return `Not published: the firm's git host refused the push${remote ? ` (${remote})` : ""}; nothing changed here or there.`;
  return "Not published: the firm's git host could not be reached; nothing changed here or there. Publish again once it answers.";
}

export interface Published {
  commit: string;
  message: string;
}

/** Who published, in the publish commit's trailers: the log's event can be made again from it after a crash. */
const ACTOR_TRAILER = "Studio-Actor";
const ROLE_TRAILER = "Studio-Role";

const loggedActor = (actor: Actor): LoggedActor =>
  actor.local
    ? { name: actor.name, email: actor.email, role: "developer" }
    : { name: actor.name, email: actor.email, role: actor.role, issuer: actor.issuer, subject: actor.subject };

const publishedEvent = (entry: Entry, name: string, commit: string, actor: LoggedActor, at = new Date()): ReviewEvent => ({
  event: "published",
  at: at.toISOString(),
  entry: { collection: entry.collection, slug: entry.slug, branch: entry.branch, name },
  commit,
  actor,
});

/**
 * Server mode, before anything is written to the firm's git host: its `main` and review log fetched, and
 * the studio's `main` brought up to the host's (a fast-forward); refused in one sentence when the host
 * cannot be reached or the two have diverged, and nothing changes.
 */
export async function catchUpWithHost(repo: string, words: { action: string; refused: string; again: string }): Promise<void> {
  await fetchHost(repo).catch((error: unknown) => {
    console.error(`studio: ${words.action}: fetching from the firm's git host failed: ${gitComplaint(error)}`);
    throw new StudioRefusal(`${words.refused}: the firm's git host could not be reached; nothing changed. ${words.again} once it answers.`);
  });
  continueHostLog(repo);
  const [local, remote] = [git(repo, "rev-parse", "main"), git(repo, "rev-parse", "origin/main")];
  if (local === remote) return;
  try {
    git(repo, "merge-base", "--is-ancestor", local, remote);
  } catch {
    throw new StudioRefusal(
      `${words.refused}: the studio's main has diverged from the firm's repository; an administrator must reconcile them first.`,
    );
  }
  git(repo, "merge", "--quiet", "--ff-only", "origin/main");
}

/** A publish the approval gate refuses (a page not approved as it would be, a conflict): not the host's fault, so not tried again. */
export class GateRefusal extends StudioRefusal {}

/** A publish carried out at the moment a principal scheduled (schedule.ts): who scheduled it, for when, and how late it went. */
export interface ScheduledRun {
  at: string;
  timeZone: string;
  lateMs: number;
}

/**
 * The merge of `entry` into the studio's `main` (brought up to the host's first), as a commit on no
 * branch, once the gate passes on it: every page whose text the result changes approved as it is.
 * Throws GateRefusal when it does not, or when the entry no longer merges.
 */
async function gatedMerge(root: string, repo: string, entry: Entry, message: string, author: { name: string; email: string }) {
  const conflict = mergeConflict(repo, entry.branch);
  if (conflict) throw new GateRefusal(conflict);
  const tree = git(repo, "merge-tree", "--write-tree", "main", entry.branch).split("\n")[0]!;
  const candidate = runGit(["commit-tree", tree, "-p", "main", "-p", entry.branch, "-m", message], {
    cwd: repo,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
      GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
    },
  }).trim();
  // The gate on what visitors will get: the merged result, with main as it is now.
  const refusal = await unapprovedRefusal(root, repo, candidate);
  if (refusal) throw new GateRefusal(refusal);
  return candidate;
}

/**
 * The gate run ahead of a scheduled moment (issue 56): against the host's `main` as it is now, what a
 * publish would answer; null when it would publish. Changes nothing but the studio's copy of the host.
 */
export async function gateNow(root: string, repo: string, entry: Entry): Promise<string | null> {
  await catchUpWithHost(repo, { action: "check", refused: "Not checked", again: "The studio checks again" });
  try {
    await gatedMerge(root, repo, entry, "Check", STUDIO_COMMITTER);
    return null;
  } catch (error) {
    if (error instanceof GateRefusal) return error.message.replace(/^Not published: /, "It would not publish now: ");
    throw error;
  }
}

/**
 * Server mode: the entry merged into `origin/main` and pushed, in one atomic push with its
 * "published" event on the review log and the entry's deletion from the host's board; only then the
 * studio's own refs. A studio stopped between the two finds the entry in the host's `main` at its
 * next start (`settlePublished`): the host and the board never disagree for longer. `scheduled`: the
 * studio's timer publishing at a principal's moment, the principal named as who scheduled it.
 */
export async function publishToOrigin(
  root: string,
  repo: string,
  entry: Entry,
  actor: Actor,
  host: HostSync,
  scheduled?: ScheduledRun,
): Promise<Published> {
  await catchUpWithHost(repo, { action: "publish", refused: "Not published", again: "Publish again" });
  const name = entryName(repo, entry);
  const trailers = [
    `${STUDIO_EVENT_TRAILER}: publish`,
    ...(actor.local ? [] : [`${ACTOR_TRAILER}: ${actor.issuer} ${actor.subject}`, `${ROLE_TRAILER}: ${actor.role}`]),
    ...(scheduled ? [`${SCHEDULED_TRAILER}: ${scheduled.at} ${scheduled.timeZone}`] : []),
  ];
  const by = scheduled
    ? `Published at the moment scheduled by ${actor.name} <${actor.email}> (${momentWritten(scheduled.at, scheduled.timeZone)}), by the content studio.`
    : `Published by ${actor.name} <${actor.email}> from the content studio.`;
  const message = `Publish ${name}\n\n${by}\n\n${trailers.join("\n")}`;
  const candidate = await gatedMerge(root, repo, entry, message, actor);
  return host.exclusive(async () => {
    const logParent = logTip(repo);
    const event = {
      ...publishedEvent(entry, name, candidate, loggedActor(actor)),
      ...(scheduled ? { scheduled: { at: scheduled.at, timeZone: scheduled.timeZone, lateMs: scheduled.lateMs } } : {}),
    };
    const logged = eventCommit(repo, event, logParent);
    const onHost = hostEntries(repo).has(entry.branch);
    const gone = [
      ...(onHost ? [`:refs/heads/${entry.branch}`] : []),
      ...(hostHasStatus(repo, entry.branch) ? [`:${STATUS_REFS}${entry.branch}`] : []),
    ];
    await gitRemote(
      repo,
      "push",
      "--quiet",
      "--atomic",
      "origin",
      `${candidate}:refs/heads/main`,
      `${logged}:refs/heads/${LOG_BRANCH}`,
      ...gone,
    ).catch((error: Error & { stderr?: string }) => {
      console.error(`studio: publish: the firm's git host did not take the push: ${gitComplaint(error)}`);
      throw new StudioRefusal(pushRefusal(error.stderr ?? error.message));
    });
    // The host has it. The studio's own refs follow (a stop before they do is settled at the next start).
    moveLog(repo, logged, logParent);
    logEvent(event);
    git(repo, "merge", "--quiet", "--ff-only", candidate);
    git(repo, "branch", "--quiet", "-D", entry.branch);
    recordStatuses(repo);
    return { commit: candidate, message: `Published ${name}: the firm's repository has it (main at ${candidate.slice(0, 7)}).` };
  });
}

export function logPublished(repo: string, entry: Entry, name: string, commit: string, actor: Actor) {
  appendEvent(repo, publishedEvent(entry, name, commit, loggedActor(actor)));
}

/** The publisher a publish commit names (its author, and its trailers for the sign-in); undefined before the trailers. */
function publisherOf(repo: string, commit: string): LoggedActor | undefined {
  const format = `%an%x1f%ae%x1f%(trailers:key=${ACTOR_TRAILER},valueonly)%x1f%(trailers:key=${ROLE_TRAILER},valueonly)`;
  const [name = "", email = "", who = "", role = ""] = git(repo, "log", "-1", `--format=${format}`, commit)
    .split("\x1f")
    .map((v) => v.trim());
  const [issuer, subject] = who.split(" ");
  if (!issuer || !subject || !/^(editor|principal|compliance)$/.test(role)) return undefined;
  return { name, email, role: role as LoggedActor["role"], issuer, subject };
}

/**
 * At start: an entry whose head the host's `main` already has was published, and the studio stopped
 * before its own refs followed. The entry leaves the board, and its "published" event is logged once
 * (taken from the publish commit) when the log does not have it yet. Returns the entries' names.
 */
export function settlePublished(repo: string): string[] {
  const events = readEvents(repo);
  const settled: string[] = [];
  for (const entry of listEntries(repo)) {
    try {
      git(repo, "merge-base", "--is-ancestor", entry.head, "main");
    } catch {
      continue;
    }
    const name = entryName(repo, entry);
    const merge = git(repo, "rev-list", "--merges", "--parents", "--reverse", "--ancestry-path", `${entry.head}..main`)
      .split("\n")
      .map((line) => line.split(" "))
      .find(([, ...parents]) => parents.includes(entry.head))?.[0];
    const publisher = merge && publisherOf(repo, merge);
    if (merge && publisher && !events.some((e) => e.event === "published" && e.commit === merge)) {
      const at = new Date(git(repo, "log", "-1", "--format=%cI", merge));
      const [when, timeZone] = git(repo, "log", "-1", `--format=%(trailers:key=${SCHEDULED_TRAILER},valueonly)`, merge).split(" ");
      const scheduled = when && timeZone ? { at: when, timeZone, lateMs: Math.max(0, at.getTime() - Date.parse(when)) } : undefined;
      appendEvent(repo, { ...publishedEvent(entry, name, merge, publisher, at), ...(scheduled ? { scheduled } : {}) });
    }
    git(repo, "branch", "--quiet", "-D", entry.branch);
    console.error(`studio: ${name} was published to the firm's git host before the studio stopped; it now shows as published`);
    settled.push(name);
  }
  return settled;
}
