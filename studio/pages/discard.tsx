/**
 * Discarding a draft from Approvals, in one step (issue 49): a person who edited an entry that is not yet
 * approved can give it up from the board, as Decap's "Delete unpublished entry" does, without finding
 * it in Decap first; a title saved as an odd address (`../../etc` saved as /etc) is discarded the same
 * way. It goes through the git API like Decap's own request (the role screen, the one-at-a-time turn,
 * decap-server deleting the branch), which records it in the review log as `discarded`, so the entry's
 * history outlives its branch.
 */
import { Hono } from "hono";
import type { StudioEnv } from "../auth/routes.ts";
import type { Session } from "../auth/sessions.ts";
import { checkFormToken } from "../http/guards.ts";
import { editsOf, entryName, findEntry, type Entry } from "../workflow/entries.ts";
import type { GitApi } from "../workflow/api.ts";

/** Whether the signed-in person may discard this entry from the board: they edited it, and no principal has approved it yet. */
export function discardable(repo: string, entry: Entry, session: Session): boolean {
  if (entry.status === "pending_publish") return false;
  const email = session.actor.email.toLowerCase();
  return editsOf(repo, entry.branch).some((edit) => edit.email === email);
}

/** The board's one-step form for an entry (nothing when the person may not discard it). */
export function DiscardForm({ repo, entry, session, name }: { repo: string; entry: Entry; session: Session; name: string }) {
  if (!discardable(repo, entry, session)) return null;
  return (
    <form method="post" action="/admin/approvals/discard" className="discard inline">
      <input type="hidden" name="_csrf" value={session.csrf} />
      <input type="hidden" name="collection" value={entry.collection} />
      <input type="hidden" name="slug" value={entry.slug} />
      <button type="submit" className="secondary" aria-label={`Discard ${name}`}>
        Discard
      </button>
    </form>
  );
}

export function discardRoutes({ repo, api }: { repo: string; api: Pick<GitApi, "handle"> }) {
  const app = new Hono<StudioEnv>();
  app.post("/admin/approvals/discard", async (c) => {
    const session = c.get("session");
    const form = await c.req.parseBody();
    if (!checkFormToken(session.csrf, form._csrf))
      return c.text("This form has expired or did not come from the studio: reload the page and try again.\n", 403);
    const entry = findEntry(repo, String(form.collection ?? ""), String(form.slug ?? ""));
    const back = (ok: boolean, text: string) => ((session.flash = { ok, text }), c.redirect("/admin/approvals", 303));
    if (!entry) return back(false, "That entry is no longer in the workflow: it was published or discarded.");
    const name = entryName(repo, entry);
    if (entry.status === "pending_publish")
      return back(false, `${name} is approved and waits to be published: a principal's approval is not discarded from here.`);
    if (!discardable(repo, entry, session)) return back(false, `Only someone who edited ${name} can discard it.`);
    const answer = await api.handle("deleteUnpublishedEntry", { branch: "main", collection: entry.collection, slug: entry.slug }, session);
    if (answer.status !== 200) return back(false, (JSON.parse(answer.body) as { error?: string }).error ?? `${name} was not discarded.`);
    return back(true, `Discarded ${name}: its draft is no longer in the workflow, and the review log keeps its history.`);
  });
  return app;
}
