/** The sign-in's own answers in server mode: a sign-in refused (in one sentence), the sign-in service unreachable, and signed out. */
import type { ReactNode } from "react";
import { StudioPage } from "../pages/studio-page.tsx";

/** One of the sign-in's pages: a heading, what happened, and the one way on (to sign in again). */
function SignInAnswer({
  title,
  heading = title,
  action,
  children,
}: {
  title: string;
  heading?: string;
  action: string;
  children: ReactNode;
}) {
  return (
    <StudioPage title={title}>
      <h1>{heading}</h1>
      {children}
      <p>
        <a className="button" href="/auth/login">
          {action}
        </a>
      </p>
    </StudioPage>
  );
}

export function SignInRefusedPage({ reason }: { reason: string }) {
  return (
    <SignInAnswer title="Sign-in refused" action="Sign in again">
      <p role="alert">{reason}</p>
    </SignInAnswer>
  );
}

/** The IdP is down or failing: one sentence for the person (what failed goes to the log). */
export function SignInUnavailablePage() {
  return (
    <SignInAnswer title="Sign-in unavailable" action="Try again">
      <p role="alert">
        The sign-in service cannot be reached just now, so the studio cannot sign you in. Try again in a few minutes; if it goes on, tell
        the studio's administrator.
      </p>
    </SignInAnswer>
  );
}

export function SignedOutPage() {
  return (
    <SignInAnswer title="Signed out" heading="You are signed out" action="Sign in again">
      <p>Your studio session has ended.</p>
    </SignInAnswer>
  );
}
