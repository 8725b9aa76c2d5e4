/** An entry's review while its builds are made (the page refreshes itself until they are), or why they failed. */
import { StudioRefusal } from "../git.ts";
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "./studio-page.tsx";

export function PreparingPage({ session, name, failure }: { session: Session; name: string; failure?: Error }) {
  // The outcome of the last form shows here too, and stays for the review once drawn.
  return (
    <StudioPage title={`${name} (preparing)`} session={session} notice={session.flash} refresh={failure ? undefined : 1}>
      <h1>{name}</h1>
      {/* A refusal (the disk is full) is one sentence; a build that failed shows its output. */}
      {failure instanceof StudioRefusal ? (
        <p role="alert">{failure.message}</p>
      ) : failure ? (
        <>
          <p role="alert">The studio could not build this entry as visitors would get it, so it cannot be reviewed yet:</p>
          <pre>{failure.message}</pre>
        </>
      ) : (
        <p data-review-preparing="">
          Preparing the review: the studio is building the pages of this entry as visitors will get them. This page refreshes by itself
          until they are built, usually within seconds.
        </p>
      )}
    </StudioPage>
  );
}
