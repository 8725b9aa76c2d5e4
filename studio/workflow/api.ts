/**
 * The git API Decap's proxy backend calls (`POST /api/v1`), behind the session: each action screened by
 * role (decap/screen.ts), run one at a time (decap-server checks branches out per request, and the
 * publish check must run in the same turn as the merge), authored by the signed-in person (git's
 * `author.*` set for that one action, the studio as committer), and followed by its record in the
 * review log. Publishing and the deploy preview are the studio's own answers.
 */
import { abandonRebase, git, saveConflict, StudioRefusal } from "../git.ts";
import type { Session } from "../auth/sessions.ts";
import { DecapUnavailable, type DecapBackend } from "../decap/backend.ts";
import { READS, screenAction, STUDIO_ACTIONS } from "../decap/screen.ts";
import { inStudioWords, withoutApprovals } from "../decap/answers.ts";
import { entryBranch, entryName, findEntry, setStatus, type Entry } from "./entries.ts";
import { documentSaveRefusal } from "./new-pages.ts";
import { appendEvent, type EventKind } from "./log.ts";
import { logLine } from "../logging.ts";

export interface ApiAnswer {
  status: number;
  body: string;
}

export interface ApiDeps {
  repo: string;
  decap: DecapBackend;
  /**
   * The studio's own answers (publish, deploy preview), in the turn; a StudioRefusal becomes 422.
   * `forward` passes the action on to decap-server after all (the loopback publish).
   */
  own(
    action: string,
    params: Record<string, unknown>,
    session: Session,
    entry: Entry | undefined,
    forward: () => Promise<ApiAnswer>,
  ): Promise<unknown>;
  /** After a change to the workflow, once the turn is over (server mode pushes it to the firm's git host). */
  logged?(): Promise<void>;
  /** In the turn, after an action that may change the board (server mode records the statuses for the host). */
  board?(): void;
  /** An entry was sent to review: the studio builds it now, so the principal's review opens without waiting. */
  submitted?(entry: Entry): void;
}

const json = (status: number, value: unknown): ApiAnswer => ({ status, body: JSON.stringify(value) });

/** The entry a save names: its collection in the options, its slug on its (first) file. */
const savedEntry = (params: Record<string, unknown>) => {
  const file = (Array.isArray(params.dataFiles) ? params.dataFiles[0] : params.entry) as { slug?: unknown } | undefined;
  return { collection: String((params.options as { collectionName?: unknown }).collectionName), slug: String(file?.slug) };
};

/** The actions that change the workflow: the board is recorded after them, and the host told. */
const CHANGES = new Set(["persistEntry", "updateUnpublishedEntryStatus", "deleteUnpublishedEntry", "publishUnpublishedEntry"]);

export function gitApi({ repo, decap, own, logged, board, submitted }: ApiDeps) {
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const log = async (event: EventKind, entry: Entry, session: Session, name = entryName(repo, entry)) => {
    const { actor } = session;
    appendEvent(repo, {
      event,
      at: new Date().toISOString(),
      entry: { collection: entry.collection, slug: entry.slug, branch: entry.branch, name },
      commit: entry.head,
      actor: actor.local
        ? { name: actor.name, email: actor.email, role: "developer" }
        : { name: actor.name, email: actor.email, role: actor.role, issuer: actor.issuer, subject: actor.subject },
    });
  };

  /** decap-server's answer to one action, its commits authored by the session's person. */
  async function forward(action: string, params: Record<string, unknown>, session: Session): Promise<ApiAnswer> {
    const { actor } = session;
    if (action === "persistEntry" && !actor.local) {
      const options = params.options as { commitMessage?: unknown };
      options.commitMessage = `${String(options.commitMessage ?? "Update")}\n\nStudio-Actor: ${actor.issuer} ${actor.subject}`;
    }
    // A write's commits are authored by the session's person: decap-server's git has them in its environment
    // for that call (decap/child.ts), not in the clone's config, so no git command is run to set them.
    const reads = READS.has(action);
    const answer = await decap.forward(
      JSON.stringify({ action, params }),
      reads ? { reads } : { author: { name: actor.name, email: actor.email } },
    );
    return { status: answer.status, body: answer.text };
  }

  async function handle(action: string, params: Record<string, unknown>, session: Session): Promise<ApiAnswer> {
    const refusal = screenAction(action, params, session.actor);
    if (refusal) return json(403, { error: refusal });
    const answer = await serially(async () => {
      const answer = await turn(action, params, session).catch((error: unknown) => {
        if (error instanceof DecapUnavailable) return json(503, { error: error.message });
        throw error;
      });
      if (CHANGES.has(action)) board?.();
      return answer;
    });
    if (CHANGES.has(action) && answer.status < 300) await logged?.();
    return answer;
  }

  /** One action in the studio's turn. */
  async function turn(action: string, params: Record<string, unknown>, session: Session): Promise<ApiAnswer> {
    // A new page's address and a withdrawal, judged against the repository in the same turn as the save.
    const unsaved = action === "persistEntry" ? documentSaveRefusal(repo, params) : null;
    if (unsaved) return json(422, { error: unsaved });
    const entry = typeof params.collection === "string" ? findEntry(repo, params.collection, String(params.slug ?? "")) : undefined;
    if (STUDIO_ACTIONS.has(action)) {
      try {
        return json(200, await own(action, params, session, entry, () => forward(action, params, session)));
      } catch (error) {
        if (error instanceof StudioRefusal) return json(422, { error: error.message });
        throw error;
      }
    }
    // A discarded draft is named by its own title, which goes with its branch.
    const name = action === "deleteUnpublishedEntry" && entry ? entryName(repo, entry) : undefined;
    const answer = await forward(action, params, session);
    // A save whose branch no longer rebases onto main: decap-server stops mid-rebase; the clone is freed, and the editor told why.
    const stopped = action === "persistEntry" && answer.status >= 300 ? abandonRebase(repo) : null;
    if (stopped) {
      git(repo, "checkout", "--quiet", "main");
      const { collection, slug } = savedEntry(params);
      const branch = entryBranch(collection, slug);
      logLine("save stopped by main's changes", { branch, files: stopped.join(" ") });
      return json(409, { error: saveConflict(stopped, branch) });
    }
    if (answer.status >= 300) return inStudioWords(action, answer);
    // Decap would take the approval's files on the branch for the entry's media, and fail its next save.
    if (action === "unpublishedEntry") return withoutApprovals(answer);
    const after = typeof params.collection === "string" ? findEntry(repo, params.collection, String(params.slug ?? "")) : undefined;
    if (action === "updateUnpublishedEntryStatus" && params.newStatus === "pending_review" && after) {
      // Its build started first: the review waits for it, not for the log's commit (about 0.1 s).
      submitted?.(after);
      await log("submitted", after, session);
    }
    // A draft given up (from Decap's "Delete unpublished entry" or the board's Discard): its history stays in the log.
    if (action === "deleteUnpublishedEntry" && entry) await log("discarded", entry, session, name);
    // A save after the approval: the approval no longer covers the words, so the entry is a draft again
    // (in loopback too, where Ready would otherwise still say "Approved" of words nobody approved).
    if (action === "persistEntry") {
      const { collection, slug } = savedEntry(params);
      const saved = findEntry(repo, collection, slug);
      if (saved?.status === "pending_publish") setStatus(repo, saved.branch, "draft");
    }
    return answer;
  }
  return { handle, serially };
}

export type GitApi = ReturnType<typeof gitApi>;
