/**
 * The frame of the studio's own pages (sign-in answers, Approvals, an entry's review): plain HTML and
 * forms, no script, the studio's name and who is signed in at the top. Values are escaped by hono's
 * `html` template; only `raw()` marks markup the studio made itself.
 */
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { readsRecords, ROLE_LABEL } from "../auth/roles.ts";
import type { Session } from "../auth/sessions.ts";

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

const CSS = `*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
header{background:#0f172a;color:#fff;padding:.75rem 1.5rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header a{color:#bae6fd}header form{margin:0 0 0 auto}header .who{margin-left:auto}header .who+form{margin-left:0}
header button{background:transparent;color:#bae6fd;border:1px solid #bae6fd;padding:.25rem .75rem}
main{max-width:90rem;margin:0 auto;padding:1.25rem 1.5rem 3rem}h1{margin:.25rem 0 1rem;font-size:1.75rem}h2{margin:.25rem 0;font-size:1.35rem}
h3{margin:1.25rem 0 .5rem;font-size:1.1rem}section{background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1.25rem}
.meta{color:#475569;margin:.25rem 0}.message{padding:.75rem 1rem;border-radius:.25rem;margin:0 0 1rem;border:1px solid}
.ok{background:#dcfce7;border-color:#16a34a}.field-error{color:#991b1b;font-weight:600;margin:.25rem 0}.error{background:#fee2e2;border-color:#dc2626}.note{background:#fef9c3;border-color:#ca8a04}
button,.button{font:inherit;font-weight:600;padding:.5rem 1rem;border:0;border-radius:.25rem;background:#0f172a;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:#0f172a;border:1px solid #0f172a}button.danger{background:#991b1b}
:focus-visible,input:focus-within,textarea:focus,select:focus{outline:3px solid #2563eb;outline-offset:2px}
label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .25rem}textarea,input{font:inherit;width:100%;max-width:40rem;padding:.4rem .5rem;border:1px solid #64748b;border-radius:.25rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:.75rem;align-items:center}
ins{background:#bbf7d0;text-decoration:none;box-shadow:0 0 0 1px #15803d}del{background:#fecaca;box-shadow:0 0 0 1px #b91c1c}
.diff{background:#f1f5f9;padding:.75rem 1rem;border-radius:.25rem;max-height:32rem;overflow:auto}.diff p{margin:.15rem 0}.diff .where{color:#475569;font-size:.875rem}
.frames{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,20rem),1fr));gap:1rem}.frame h3{margin:.25rem 0;font-size:1rem}
.frame-box{box-sizing:content-box;min-height:0;container-type:inline-size;overflow:clip;border:1px solid #94a3b8;background:#fff}
.frame-box iframe{border:0;display:block;background:#fff;transform-origin:0 0}
/* A page at the width it was built for, scaled to its box (decision 0029): tan(atan2(a,b)) is a/b as a number, which CSS cannot divide lengths into. */
.desktop .frame-box{aspect-ratio:1440/1280}.desktop iframe{width:1440px;height:1280px;transform:scale(.2);transform:scale(tan(atan2(100cqw,1440px)))}
.phone .frame-box{max-width:375px;aspect-ratio:375/640}.phone iframe{width:375px;height:640px;transform:scale(.8);transform:scale(tan(atan2(100cqw,375px)))}
pre{white-space:pre-wrap;font:13px/1.5 ui-monospace,monospace;background:#f1f5f9;padding:.75rem;max-height:24rem;overflow:auto}
ol.history{padding-left:1.25rem}ol.history li{margin:.35rem 0}blockquote{margin:.25rem 0 0;padding:.25rem .75rem;border-left:3px solid #94a3b8;white-space:pre-wrap}
.check{margin:.35rem 0}.check.good,.checks .good{color:#14532d}.check.bad,.checks .bad,.drift{color:#7f1d1d}.check ul{margin:.25rem 0}
ol.timeline{list-style:none;padding:0}ol.timeline>li{background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 .75rem}
ol.timeline h3{margin:0 0 .25rem}.checks{padding-left:0;list-style:none}.checks>li{margin:.4rem 0}ul.pages{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
[aria-current=page]{font-weight:700}.frames.records{grid-template-columns:repeat(auto-fit,minmax(min(100%,28rem),1fr))}.frames.records iframe{width:100%;height:40rem;border:1px solid #94a3b8;background:#fff}
figure{margin:0}figcaption{font-weight:600;margin:.25rem 0}form.inline{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}form.inline label{margin:0}form.inline input,form.inline select{width:auto}
fieldset{border:1px solid #cbd5e1;border-radius:.25rem;max-width:40rem}code{overflow-wrap:anywhere}
@media (max-width:40rem){main{padding:1rem .75rem 2rem}section{padding:.75rem}}`;

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
        <link rel="stylesheet" href="/admin/studio.css" />
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

/** The stylesheet of the studio's own pages (served as /admin/studio.css, so the pages need no inline style). */
export const STUDIO_CSS = CSS;
export { html, raw };
