/**
 * The frame of the studio's own pages (sign-in answers, Approvals, an entry's review, the Records): plain
 * HTML and forms, no script, the studio's name and who is signed in at the top. A React component
 * rendered to static markup (render.ts): React escapes every value.
 */
import type { ReactNode } from "react";
import { readsRecords, ROLE_LABEL } from "../auth/roles.ts";
import type { Session } from "../auth/sessions.ts";
import { STUDIO_CSS_PATH } from "./stylesheet.ts";

export interface PageOptions {
  session?: Session;
  /** Shown at the top: the outcome of the last action (a redirect brings it). */
  notice?: { ok: boolean; text: string };
  /** Seconds after which the page loads itself again (a review whose builds are being made). */
  refresh?: number;
}

/** Who is signed in, in which role, and the sign-out form (server mode). */
function WhoIs({ session }: { session: Session }) {
  const { actor } = session;
  const role = actor.local ? "one developer on this machine" : ROLE_LABEL[actor.role];
  return (
    <>
      <span className="who">
        Signed in as <strong>{actor.name}</strong> ({role})
      </span>
      {actor.local ? null : (
        <form method="post" action="/auth/logout">
          <input type="hidden" name="_csrf" value={session.csrf} />
          <button type="submit">Sign out</button>
        </form>
      )}
    </>
  );
}

export function StudioPage({ title, children, session, notice, refresh }: PageOptions & { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        {refresh ? <meta httpEquiv="refresh" content={String(refresh)} /> : null}
        <title>{`${title} · Content studio`}</title>
        <link rel="stylesheet" href={STUDIO_CSS_PATH} />
      </head>
      <body>
        <header>
          <strong>Content studio</strong>
          <a href="/admin/">Entries</a>
          <a href="/admin/approvals">Approvals</a>
          {session && readsRecords(session.actor) ? <a href="/admin/records">Records</a> : null}
          {session ? <WhoIs session={session} /> : null}
        </header>
        <main id="main" data-ready={refresh ? undefined : ""}>
          {notice ? (
            // The outcome of the last action takes focus, so a screen reader says it and the next Tab goes on from there.
            <p className={`message ${notice.ok ? "ok" : "error"}`} role={notice.ok ? "status" : "alert"} tabIndex={-1} autoFocus>
              {notice.text}
            </p>
          ) : null}
          {children}
        </main>
      </body>
    </html>
  );
}
