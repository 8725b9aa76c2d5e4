/**
 * The approvals view (/admin/approvals), beside Decap's admin (3.16 cannot add a page inside it): every
 * entry In review or Ready, the pages whose text it changes, the word-by-word difference from the
 * approved text, and a form to approve as a registered principal. Plain HTML and forms, no script.
 */
import type { IncomingMessage } from "node:http";
import { approveEntry, pageChanges, reviewEntries, type PageChange, type ReviewEntry } from "./approvals.ts";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const STATUS = { draft: "Draft", pending_review: "In review", pending_publish: "Ready" } as Record<string, string>;

const CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
header{background:#0f172a;color:#fff;padding:1rem 2rem;display:flex;gap:2rem;align-items:baseline}
header a{color:#bae6fd}main{max-width:72rem;margin:0 auto;padding:1.5rem 2rem}
section{background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem 1.5rem;margin:0 0 1.5rem}
h2{margin:.25rem 0}.page{border-top:1px solid #e2e8f0;padding-top:.75rem;margin-top:.75rem}
pre{white-space:pre-wrap;background:#f1f5f9;padding:.75rem;border-radius:.25rem;font:14px/1.6 ui-monospace,monospace;max-height:28rem;overflow:auto}
ins{background:#bbf7d0;text-decoration:none;outline:1px solid #16a34a}del{background:#fecaca;outline:1px solid #dc2626}
.message{padding:.75rem 1rem;border-radius:.25rem;margin:0 0 1rem}.ok{background:#dcfce7}.error{background:#fee2e2}
form{display:flex;flex-wrap:wrap;gap:1rem;align-items:end;margin-top:1rem}label{display:flex;flex-direction:column;font-weight:600;font-size:.875rem}
input{font:inherit;padding:.4rem .5rem;border:1px solid #64748b;border-radius:.25rem;min-width:16rem}
button{font:inherit;font-weight:600;padding:.5rem 1rem;border:0;border-radius:.25rem;background:#0f172a;color:#fff;cursor:pointer}`;

/** Only the changed words and a little context around each change, so that a long page stays readable. */
function diffHtml(change: PageChange): string {
  return change.diff
    .map((part) => {
      const text = escape(part.value);
      if (part.added) return `<ins>${text}</ins>`;
      if (part.removed) return `<del>${text}</del>`;
      const lines = part.value.split("\n");
      return lines.length <= 7 ? text : escape([...lines.slice(0, 3), "…", ...lines.slice(-3)].join("\n"));
    })
    .join("");
}

function entryHtml(entry: ReviewEntry, changes: PageChange[]): string {
  const pages = changes.length
    ? changes
        .map(
          (c) =>
            `<div class="page" data-page="${escape(c.page)}"><h3>${escape(c.page)}: ${c.reason === "new" ? "never approved" : "differs from the approved text"}</h3><pre>${diffHtml(c)}</pre></div>`,
        )
        .join("")
    : `<p>Every page this entry builds is approved: it can be published.</p>`;
  const form = changes.length
    ? `<form method="post" action="/admin/approvals/approve">
<input type="hidden" name="branch" value="${escape(entry.branch)}"><input type="hidden" name="head" value="${entry.head}">
<label>Principal's name<input name="name" required autocomplete="name"></label>
<label>Registration<input name="registration" required placeholder="Series 24, CRD 1234567"></label>
<button type="submit">Approve ${changes.length} page${changes.length === 1 ? "" : "s"}</button></form>`
    : "";
  return `<section data-entry="${escape(entry.branch)}"><h2>${escape(entry.collection)} / ${escape(entry.slug)}</h2>
<p>${STATUS[entry.status] ?? escape(entry.status)} · branch <code>${escape(entry.branch)}</code> at <code>${entry.head.slice(0, 7)}</code></p>${pages}${form}</section>`;
}

export async function approvalsPage(root: string, repo: string, message?: { ok: boolean; text: string }): Promise<string> {
  const entries = reviewEntries(repo).filter((e) => e.status === "pending_review" || e.status === "pending_publish");
  const sections: string[] = [];
  for (const entry of entries) sections.push(entryHtml(entry, await pageChanges(root, repo, entry.head)));
  const note = message
    ? `<p class="message ${message.ok ? "ok" : "error"}" role="${message.ok ? "status" : "alert"}">${escape(message.text)}</p>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Approvals · Content studio</title><style>${CSS}</style></head><body><header><strong>Content studio</strong><a href="/admin/">Entries</a><span>Approvals</span></header>
<main><h1>Approvals</h1><p>Entries in review, with the words they change on the site against the approved text. Approving records your name and registration in the approvals ledger, on the entry's branch.</p>
${note}${sections.join("\n") || "<p>No entry is in review.</p>"}</main></body></html>`;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error("The form is too large.");
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Handles the approval form; resolves to the message to show. */
export async function approveFromForm(root: string, repo: string, form: URLSearchParams): Promise<{ ok: boolean; text: string }> {
  const branch = form.get("branch") ?? "";
  if (!reviewEntries(repo).some((e) => e.branch === branch && (e.status === "pending_review" || e.status === "pending_publish")))
    return { ok: false, text: "That entry is not in review." };
  try {
    const commit = await approveEntry(root, repo, branch, form.get("head") ?? "", {
      name: form.get("name") ?? "",
      registration: form.get("registration") ?? "",
    });
    return { ok: true, text: `Approved: recorded on ${branch} (commit ${commit.slice(0, 7)}). The entry can now be published.` };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}
