/**
 * Approvals (`/admin/approvals`): every entry of the workflow by where it stands, named as people say
 * it, with who edited it and the latest step of its review; and the entries published lately, with who
 * approved and who published them, when; and the pages due for review (issue 54). Read from git alone
 * (no build), so it opens at once.
 */
import type { Session } from "../auth/sessions.ts";
import { scheduledLine, scheduleOf, scheduleState } from "../workflow/schedule.ts";
import { editsOf, entryName, listEntries, type Entry, type Status } from "../workflow/entries.ts";
import { eventsOf, readEvents, type ReviewEvent } from "../workflow/log.ts";
import { whenShort } from "../../lib/dates.ts";
import type { NotOnHost } from "../workflow/host.ts";
import { eventLine } from "./format.ts";
import { StudioPage } from "./studio-page.tsx";
import { reviewUrl } from "./review.tsx";
import { DiscardForm } from "./discard.tsx";
import { reviewSentence } from "../../lib/approval/review-report.ts";
import type { PageReview } from "../../lib/approval/reviews.ts";
import { pageReviewUrl, statusClass, statusWord } from "./page-review.tsx";

/** The pages due for review within 30 days or overdue (most urgent first), or why the policy cannot be read. */
export interface ReviewsDue {
  due: PageReview[];
  problem?: string;
}

/** "Reviews due": what a principal reviews next, each in one sentence, red when overdue and amber when due soon. */
function ReviewsDueSection({ reviews }: { reviews: ReviewsDue }) {
  return (
    <section aria-labelledby="reviews-due" data-reviews-due="">
      <h2 id="reviews-due">Reviews due</h2>
      {reviews.problem ? (
        <p role="alert">{`The review policy cannot be read, so nothing here says what is due: ${reviews.problem}`}</p>
      ) : reviews.due.length ? (
        <ul className="reviews">
          {reviews.due.map((review) => (
            <li key={review.page} className={statusClass(review)} data-page={review.page} data-review-status={review.status}>
              <strong>{`${statusWord(review)}:`}</strong> {reviewSentence(review)}.{" "}
              <a href={pageReviewUrl(review.page)} aria-label={`Start review: ${review.title}`}>
                Start review
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>No page is due for review in the next 30 days.</p>
      )}
    </section>
  );
}

const GROUPS: Array<{ status: Status; heading: string; empty: string }> = [
  { status: "pending_review", heading: "Waiting for a principal's review", empty: "No entry is in review." },
  { status: "pending_publish", heading: "Approved, ready to publish", empty: "No entry is waiting to be published." },
  { status: "draft", heading: "Drafts", empty: "No drafts." },
];

const NOT_ON_HOST = "Not yet on the firm's git host: the studio keeps trying, and nothing is lost meanwhile.";

function EntryItem({
  repo,
  entry,
  events,
  session,
  notOnHost,
}: {
  repo: string;
  entry: Entry;
  events: ReviewEvent[];
  session: Session;
  notOnHost?: NotOnHost;
}) {
  const edits = editsOf(repo, entry.branch);
  const last = eventsOf(events, entry.branch).at(-1);
  const editors = [...new Set(edits.map((e) => e.name))].join(", ");
  const name = entryName(repo, entry);
  const away = notOnHost?.entries.has(entry.branch);
  const schedule = entry.status === "pending_publish" ? scheduleOf(repo, entry.branch) : undefined;
  return (
    <li data-entry={entry.branch} data-not-on-host={away ? "" : undefined}>
      <a href={reviewUrl(entry)}>{name}</a>
      {editors ? ` · edited by ${editors}${edits.length ? `, ${whenShort(edits.at(-1)!.at)}` : ""}` : null}{" "}
      {last ? (
        <>
          <br />
          <span className="meta">{eventLine(last)}</span>
          {last.comment && last.event !== "approved" ? <blockquote>{last.comment}</blockquote> : null}
        </>
      ) : null}{" "}
      {schedule ? (
        <p className="schedule" data-scheduled={schedule.at}>
          <strong>{scheduledLine(schedule)}.</strong>{" "}
          <span className={schedule.outcome || schedule.gate?.refusal ? "refusal" : "meta"} data-schedule-state="">
            {scheduleState(schedule)}
          </span>
        </p>
      ) : null}
      {away ? (
        <>
          <br />
          <span className="meta">{NOT_ON_HOST}</span>
        </>
      ) : null}{" "}
      <DiscardForm repo={repo} entry={entry} session={session} name={name} />
    </li>
  );
}

/** The board; `notOnHost` (server mode) marks what the firm's git host does not have yet. */
export function ApprovalsPage({
  repo,
  session,
  notice,
  notOnHost,
  reviews,
}: {
  repo: string;
  session: Session;
  notice?: { ok: boolean; text: string };
  notOnHost?: NotOnHost;
  reviews?: ReviewsDue;
}) {
  const entries = listEntries(repo);
  const events = readEvents(repo);
  const published = events
    .filter((e) => e.event === "published")
    .slice(-10)
    .reverse();
  const approvalOf = (p: ReviewEvent) =>
    events.filter((e) => e.event === "approved" && e.entry.branch === p.entry.branch && e.at <= p.at).at(-1);
  return (
    <StudioPage title="Approvals" session={session} notice={notice}>
      <h1>Approvals</h1>
      <p>Every change to the site's words is reviewed here by a registered principal before it is published.</p>
      {notOnHost?.events ? (
        <p role="status" data-log-not-on-host="">
          {notOnHost.events} step{notOnHost.events === 1 ? "" : "s"} of the review log {notOnHost.events === 1 ? "is" : "are"} not yet on
          the firm's git host: the studio keeps trying, and nothing is lost meanwhile.
        </p>
      ) : null}
      {GROUPS.map(({ status, heading, empty }) => {
        const mine = entries.filter((e) => e.status === status);
        return (
          <section key={status}>
            <h2>{heading}</h2>
            {mine.length ? (
              <ul>
                {mine.map((e) => (
                  <EntryItem key={e.branch} repo={repo} entry={e} events={events} session={session} notOnHost={notOnHost} />
                ))}
              </ul>
            ) : (
              <p>{empty}</p>
            )}
          </section>
        );
      })}
      {reviews ? <ReviewsDueSection reviews={reviews} /> : null}
      <section>
        <h2>Published lately</h2>
        {published.length ? (
          <ul>
            {published.map((p, i) => {
              const approval = approvalOf(p);
              return <li key={i}>{`${p.entry.name}: ${approval ? `${eventLine(approval)}; ` : ""}${eventLine(p)}`}</li>;
            })}
          </ul>
        ) : (
          <p>Nothing has been published from the studio yet.</p>
        )}
      </section>
    </StudioPage>
  );
}
