/**
 * The Records' answers before any capture can be shown: the store cannot be read, its index is being
 * built at the first look (the page loads itself again), or the person's role does not read records.
 */
import type { Session } from "../auth/sessions.ts";
import { StudioPage } from "../pages/studio-page.tsx";

export function UnavailablePage({ session, reason }: { session: Session; reason: string }) {
  return (
    <StudioPage title="Records unavailable" session={session}>
      <h1>Records</h1>
      <p role="alert">{reason}</p>
    </StudioPage>
  );
}

/** The index being built at the first look: how far it is. */
export function BuildingPage({
  session,
  storeLabel,
  progress,
}: {
  session: Session;
  storeLabel: string;
  progress: { checked: number; total: number };
}) {
  return (
    <StudioPage title="Records (checking the store)" session={session} refresh={5}>
      <h1>Records</h1>
      <p role="status" data-building="">
        The studio is checking every capture in {storeLabel} for the first time, from its stored bytes:{" "}
        {progress.checked.toLocaleString("en-US")} of {progress.total.toLocaleString("en-US")} so far. This page loads itself again every
        few seconds until it is done.
      </p>
    </StudioPage>
  );
}

export function NotForYouPage({ session }: { session: Session }) {
  return (
    <StudioPage title="Records" session={session}>
      <h1>Records</h1>
      <p role="alert">The records are for compliance and principals: ask compliance if you need something from them.</p>
    </StudioPage>
  );
}
