/** The sign-in's own answers in server mode: a sign-in refused (in one sentence), the sign-in service unreachable, and signed out. */
import { StudioPage } from "../pages/studio-page.tsx";

export function SignInRefusedPage({ reason }: { reason: string }) {
  return (
    <StudioPage title="Sign-in refused">
      <h1>Sign-in refused</h1>
      <p role="alert">{reason}</p>
      <p>
        <a className="button" href="/auth/login">
          Sign in again
        </a>
      </p>
    </StudioPage>
  );
}

/** The IdP is down or failing: one sentence for the person (what failed goes to the log). */
export function SignInUnavailablePage() {
  return (
    <StudioPage title="Sign-in unavailable">
      <h1>Sign-in unavailable</h1>
      <p role="alert">
        The sign-in service cannot be reached just now, so the studio cannot sign you in. Try again in a few minutes; if it goes on, tell
        the studio's administrator.
      </p>
      <p>
        <a className="button" href="/auth/login">
          Try again
        </a>
      </p>
    </StudioPage>
  );
}

export function SignedOutPage() {
  return (
    <StudioPage title="Signed out">
      <h1>You are signed out</h1>
      <p>Your studio session has ended.</p>
      <p>
        <a className="button" href="/auth/login">
          Sign in again
        </a>
      </p>
    </StudioPage>
  );
}
