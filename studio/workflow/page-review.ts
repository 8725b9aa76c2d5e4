/**
 * A principal's "Reviewed, no change" of a page as published (issue 54, decision 0056): the review is
 * an approval marked `review: "no change"` of the page's text on `main`, with its "Last reviewed" line
 * moved to the month of the review in the firm's zone, as one commit on `main` (the ledger and the
 * approved text, authored by the principal), and a `reviewed` event in the review log. Server mode
 * publishes it to the firm's git host as a publish does: fetched first, the gate run on the commit,
 * `main` and the log in one atomic push, and only then the studio's own refs. Loopback mode moves the
 * studio's clone's `main` and brings it into the project.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_FILE, recordApproval, serializeLedger, textFileOf } from "../../lib/approval/ledger.ts";
import { dayIn, withReviewLine } from "../../lib/approval/reviews.ts";
import { pageTextHash } from "../../lib/approval/text.ts";
import { monthWritten } from "../../lib/dates.ts";
import { git, STUDIO_COMMITTER, StudioRefusal, syncMainBack } from "../git.ts";
import { pageNamer } from "../../src/build/documents.ts";
import { buildOf } from "./builds.ts";
import { ledgerAt } from "./at.ts";
import { documentsAt, zoneAt } from "./review-policy.ts";
import { STUDIO_EVENT_TRAILER } from "./entries.ts";
import { eventCommit, logEvent, logTip, moveLog, appendEvent, LOG_BRANCH, type LoggedActor, type ReviewEvent } from "./log.ts";
import { gitComplaint, gitRemote, type HostSync } from "./host.ts";
import { catchUpWithHost, unapprovedRefusal } from "./publish.ts";
import { recordedAs, type Approver } from "./approve.ts";
import { runGit } from "../git-process/run.ts";

/** Moves the studio's `main` forward to `commit` (its work tree too, when `main` is checked out). */
function moveMain(repo: string, commit: string, from: string) {
  if (git(repo, "rev-parse", "--abbrev-ref", "HEAD") === "main") git(repo, "merge", "--quiet", "--ff-only", commit);
  else git(repo, "update-ref", "refs/heads/main", commit, from);
}

export interface PageReviewRequest {
  page: string;
  /** The commit of `main` the principal read: a `main` that moved since is refused. */
  head: string;
  approver: Approver;
  actor: LoggedActor;
  comment?: string;
  auth?: ReviewEvent["auth"];
}

/** The commit on `main` that records the review (not yet on any branch), and the event that says it. */
async function reviewCommit(
  root: string,
  repo: string,
  request: PageReviewRequest,
  now: Date,
): Promise<{ commit: string; event: ReviewEvent }> {
  const head = git(repo, "rev-parse", "main");
  if (head !== request.head)
    throw new StudioRefusal("The site changed since this page was loaded: reload it, read the page again, then record the review.");
  const ledger = ledgerAt(repo, head);
  const current = ledger.pages[request.page];
  const { pages } = await buildOf(root, repo, head);
  const built = pages[request.page];
  if (!current || !built) throw new StudioRefusal(`${request.page} is not a page of the site as published: nothing to review.`);
  if (built.sha256 !== current.sha256)
    throw new StudioRefusal(`${request.page} on main is not the approved text: it is reviewed with the change that makes it so.`);
  const text = withReviewLine(built.text, monthWritten(dayIn(now, zoneAt(repo, head))));
  const { approver } = request;
  const { approvedBy, details } = recordedAs(approver, head);
  const next = recordApproval(ledger, request.page, pageTextHash(text), approvedBy, now, { ...details, review: "no change" }).ledger;
  const title = pageNamer(documentsAt(repo, head))(request.page);
  const index = join(root, ".studio", `index-review-${process.pid}-${Date.now()}`);
  const run = (args: string[], input?: string, env: Record<string, string> = {}) =>
    runGit(args, { cwd: repo, env: { ...process.env, GIT_INDEX_FILE: index, ...env }, input }).trim();
  try {
    run(["read-tree", head]);
    for (const [path, content] of [
      [LEDGER_FILE, serializeLedger(next)],
      [textFileOf(request.page), text],
    ] as Array<[string, string]>) {
      const blob = run(["hash-object", "-w", "--stdin"], content);
      run(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
    }
    const message = `Review ${title}: no change\n\nReviewed by ${approvedBy} in the content studio; the page's words are unchanged.\n\n${STUDIO_EVENT_TRAILER}: review`;
    const commit = run(["commit-tree", run(["write-tree"]), "-p", head, "-m", message], undefined, {
      GIT_AUTHOR_NAME: approver.name,
      GIT_AUTHOR_EMAIL: approver.email,
      GIT_COMMITTER_NAME: STUDIO_COMMITTER.name,
      GIT_COMMITTER_EMAIL: STUDIO_COMMITTER.email,
    });
    const event: ReviewEvent = {
      event: "reviewed",
      at: now.toISOString(),
      entry: { collection: "pages", slug: request.page, branch: "main", name: title },
      commit,
      actor: request.actor,
      ...(request.comment ? { comment: request.comment } : {}),
      pages: [{ page: request.page, sha256: pageTextHash(text) }],
      ...(request.auth ? { auth: request.auth } : {}),
    };
    return { commit, event };
  } finally {
    rmSync(index, { force: true });
  }
}

/**
 * Records the review; resolves to the sentence the principal reads next. Server mode: on the firm's git
 * host first (a moved or unreachable host refuses it, and nothing changes).
 */
export async function recordPageReview(
  root: string,
  repo: string,
  request: PageReviewRequest,
  host?: HostSync,
  now = new Date(),
): Promise<string> {
  if (host) await catchUpWithHost(repo, { action: "review", refused: "Not recorded", again: "Try again" });
  const { commit, event } = await reviewCommit(root, repo, request, now);
  // The gate on what visitors will get: every page of the commit approved, the moved line included.
  const refusal = await unapprovedRefusal(root, repo, commit);
  if (refusal) throw new StudioRefusal(refusal);
  const done = `Recorded: ${event.entry.name} reviewed, no change, by ${request.approver.name}. Its "Last reviewed" line says ${monthWritten(dayIn(now, zoneAt(repo, commit)))} once the site is deployed.`;
  if (!host) {
    moveMain(repo, commit, request.head);
    appendEvent(repo, event);
    const waiting = syncMainBack(root, repo);
    if (waiting) console.warn(`studio: ${waiting}`);
    return done;
  }
  return host.exclusive(async () => {
    const logParent = logTip(repo);
    const logged = eventCommit(repo, event, logParent);
    await gitRemote(repo, "push", "--quiet", "--atomic", "origin", `${commit}:refs/heads/main`, `${logged}:refs/heads/${LOG_BRANCH}`).catch(
      (error: Error & { stderr?: string }) => {
        console.error(`studio: review: the firm's git host did not take the push: ${gitComplaint(error)}`);
        throw new StudioRefusal(
          "Not recorded: the firm's git host did not take it (main moved, or it could not be reached); nothing changed. Reload and try again.",
        );
      },
    );
    moveLog(repo, logged, logParent);
    logEvent(event);
    moveMain(repo, commit, request.head);
    return done;
  });
}
