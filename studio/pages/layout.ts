/**
 * The frame of the studio's own pages (sign-in answers, Approvals, an entry's review): plain HTML and
 * forms, no script, the studio's name and who is signed in at the top. Values are escaped by hono's
 * `html` template; only `raw()` marks markup the studio made itself.
 */
import { readFileSync } from "node:fs";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { sha256Hex } from "../../lib/hash.ts";
import { readsRecords, ROLE_LABEL } from "../auth/roles.ts";
import type { Session } from "../auth/sessions.ts";

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The stylesheet, a file of its own, served under a name made from its hash so a browser keeps it until it changes. */
export const STUDIO_CSS = readFileSync(new URL("./studio.css", import.meta.url), "utf8");
export const STUDIO_CSS_PATH = `/admin/studio.${sha256Hex(STUDIO_CSS).slice(0, 12)}.css`;

export interface PageOptions {
  session?: Session;
  /** Shown at the top: the outcome of the last action (a redirect brings it). */
  notice?: { ok: boolean; text: string };
  /** Seconds after which the page loads itself again (a review whose builds are being made). */
  refresh?: number;
}

/** Who is signed in, in which role, and the sign-out form (server mode). */
function whoIs(session: Session | undefined) {
  if (!session) return "";
  const { actor } = session;
  const role = actor.local ? "one developer on this machine" : ROLE_LABEL[actor.role];
  return html`<span class="who">Signed in as <strong>${actor.name}</strong> (${role})</span>${
      actor.local
        ? ""
        : html`<form method="post" action="/auth/logout">
            <input type="hidden" name="_csrf" value="${session.csrf}" /><button type="submit">Sign out</button>
          </form>`
    }`;
}

export function studioPage(title: string, body: Markup, options: PageOptions = {}): Markup {
  // The outcome of the last action takes focus, so a screen reader says it and the next Tab goes on from there.
  const notice = options.notice
    ? html`<p
        class="message ${options.notice.ok ? "ok" : "error"}"
        role="${options.notice.ok ? "status" : "alert"}"
        tabindex="-1"
        autofocus
      >
        ${options.notice.text}
      </p>`
    : "";
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        ${options.refresh ? raw(`<meta http-equiv="refresh" content="${options.refresh}" />`) : ""}
        <title>${title} · Content studio</title>
        <link rel="stylesheet" href="${STUDIO_CSS_PATH}" />
      </head>
      <body>
        <header>
          <strong>Content studio</strong><a href="/admin/">Entries</a><a href="/admin/approvals">Approvals</a>${
            options.session && readsRecords(options.session.actor) ? html`<a href="/admin/records">Records</a>` : ""
          }${whoIs(options.session)}
        </header>
        <main id="main" ${options.refresh ? "" : raw("data-ready")}>${notice}${body}</main>
      </body>
    </html>`;
}

export { html, raw };
