import { defineMiddleware } from "astro:middleware";
import { markDraft, unapprovedPages } from "../../lib/approval/ledger";
import { pageOfHtmlFile } from "../../lib/pages";
import { readLedger } from "../../lib/approval/files";
import { extractPageText, pageTextHash } from "../../lib/approval/text";

/** The dev server's draft marking: each HTML answer is checked against the ledger as it is on disk now. */
export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (!response.headers.get("content-type")?.startsWith("text/html")) return response;
  const html = await response.text();
  // The not-found page is one page ("/404") whatever unknown path asked for it.
  const page = response.status === 404 ? "/404" : pageOfHtmlFile(context.url.pathname.replace(/^\//, ""));
  const sha256 = pageTextHash(extractPageText(html));
  const draft = unapprovedPages([{ page, sha256 }], readLedger(process.cwd())).length > 0;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(draft ? markDraft(html) : html, { status: response.status, statusText: response.statusText, headers });
});
