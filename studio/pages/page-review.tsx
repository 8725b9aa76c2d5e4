/**
 * A page's review (`/admin/pages/review?page=/risk-disclosures`, issue 54): when it was last reviewed and
 * by whom, when it is due and under which rule, the page as published, and what the signed-in person
 * may do: a principal records "Reviewed, no change" (signed in afresh, as for an approval), anyone who
 * edits starts an edit in the admin. The board's "Reviews due" links here.
 */
import { activeEntry, utcDay, type RosterEntry } from "../../lib/approval/roster.ts";
import { lastReviewWritten, reviewSentence } from "../../lib/approval/review-report.ts";
import type { PageReview } from "../../lib/approval/reviews.ts";
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "./studio-page.tsx";

export const pageReviewUrl = (page: string) => `/admin/pages/review?page=${encodeURIComponent(page)}`;

export interface PageReviewProblem {
  field: "name" | "registration" | "comment";
  text: string;
  typed: { name: string; registration: string; comment: string };
}

export interface PageReviewView {
  session: Session;
  review: PageReview;
  /** The commit of main the page shows: a review is recorded only if main is still there. */
  head: string;
  /** Where the page is edited in the admin (Decap's entry), when it has a content file of its own. */
  editUrl?: string | undefined;
  roster: RosterEntry[];
  freshMs: number;
  now: Date;
  notice?: { ok: boolean; text: string } | undefined;
  problem?: PageReviewProblem | undefined;
}

/** "overdue" → the board's and this page's red; "due soon" → amber; "ok" → plain. */
export const statusClass = (review: PageReview) =>
  review.status === "overdue" ? "review-overdue" : review.status === "due soon" ? "review-due-soon" : "review-ok";

/** "Overdue", "Due soon", "Not due": said in words, never by colour alone. */
export const statusWord = (review: PageReview) =>
  review.status === "overdue" ? "Overdue" : review.status === "due soon" ? "Due soon" : "Not due";

function ReviewForm({ v }: { v: PageReviewView }) {
  const { problem } = v;
  const tie = (name: PageReviewProblem["field"], id: string) =>
    problem?.field === name ? { "aria-invalid": true as const, "aria-describedby": `${id}-error`, autoFocus: true } : {};
  const error = (name: PageReviewProblem["field"], id: string) =>
    problem?.field === name ? (
      <p className="field-error" id={`${id}-error`}>
        {problem.text}
      </p>
    ) : null;
  return (
    <form method="post" action="/admin/pages/review" className="decide">
      <input type="hidden" name="_csrf" value={v.session.csrf} />
      <input type="hidden" name="page" value={v.review.page} />
      <input type="hidden" name="head" value={v.head} />
      {v.session.actor.local ? (
        <>
          <label htmlFor="name">Principal's name</label>
          {error("name", "name")}
          <input id="name" name="name" required autoComplete="name" defaultValue={problem?.typed.name} {...tie("name", "name")} />
          <label htmlFor="registration">Registration</label>
          {error("registration", "registration")}
          <input
            id="registration"
            name="registration"
            required
            placeholder="Series 24, CRD 1234567"
            defaultValue={problem?.typed.registration}
            {...tie("registration", "registration")}
          />
        </>
      ) : null}
      <label htmlFor="comment-review">Comment (optional, kept with the review)</label>
      {error("comment", "comment-review")}
      <textarea id="comment-review" name="comment" rows={2} defaultValue={problem?.typed.comment} {...tie("comment", "comment-review")} />
      <div className="actions">
        <button type="submit">Reviewed, no change</button>
      </div>
    </form>
  );
}

/** What the signed-in person may do: record the review (a principal, afresh), or start an edit. */
function ReviewPart({ v }: { v: PageReviewView }) {
  const { actor } = v.session;
  const edit = v.editUrl ? (
    <p>
      If the page needs a change, <a href={v.editUrl}>edit {v.review.title}</a>: the change is reviewed and approved like any other, and its
      approval is the page's review.
    </p>
  ) : null;
  if (actor.local)
    return (
      <>
        <ReviewForm v={v} />
        {edit}
      </>
    );
  if (actor.role !== "principal")
    return (
      <>
        <p>A registered principal on the roster records the review; you can follow it here.</p>
        {actor.role === "editor" ? edit : null}
      </>
    );
  const today = utcDay(v.now);
  if (!activeEntry(v.roster, actor.email, today))
    return (
      <p role="alert">
        You have no active entry on the principals' roster today ({today}), so you cannot record reviews. Compliance keeps the roster.
      </p>
    );
  const fresh = actor.confirmed && v.now.getTime() - actor.authTime <= v.freshMs;
  return (
    <>
      {fresh ? (
        <ReviewForm v={v} />
      ) : (
        <>
          <p>
            Recording a review records your name, CRD and registration with it, and moves the page's "Last reviewed" line. It needs you to
            sign in again (valid for {Math.round(v.freshMs / 60_000)} minutes).
          </p>
          <p>
            <a className="button" href={`/auth/login?fresh=1&return=${encodeURIComponent(pageReviewUrl(v.review.page))}`}>
              Confirm it's you to record a review
            </a>
          </p>
        </>
      )}
      {edit}
    </>
  );
}

export function PageReviewPage(v: PageReviewView) {
  const { review } = v;
  return (
    <StudioPage title={`Review: ${review.title}`} session={v.session} notice={v.notice}>
      <h1>{`Review: ${review.title}`}</h1>
      <p className="meta">{`${review.page} · last reviewed ${lastReviewWritten(review)}`}</p>
      <p className={`review-status ${statusClass(review)}`} data-review-status={review.status}>
        {`${statusWord(review)}: ${reviewSentence(review)}.`}
      </p>
      <section aria-labelledby="decide">
        <h2 id="decide">Record the review</h2>
        <p>
          Read the page as visitors get it today. If every word still holds, record that it was reviewed with no change: the review is kept
          in the ledger and the review log with your name, and the page's next review falls due one interval from today.
        </p>
        <ReviewPart v={v} />
      </section>
      <section aria-labelledby="as-published">
        <h2 id="as-published">The page as published</h2>
        <div className="frames desktop">
          <div className="frame">
            <div className="frame-box">
              <iframe
                sandbox=""
                tabIndex={-1}
                title={`${review.title}, as published`}
                src={`/admin/pages/frame?page=${encodeURIComponent(review.page)}`}
              ></iframe>
            </div>
          </div>
        </div>
      </section>
    </StudioPage>
  );
}
