/**
 * decap-server's answers as the studio passes them on. Its refusals, in the studio's words: decap-server
 * checks each request against its own schema (joi) and answers a failed check with the library's
 * message (`"params.slug" is not allowed to be empty`), a missing branch with its name, and a failure of
 * git with "Unknown error". None of that is for the person at the editor: the studio answers one
 * sentence saying what could not be done and what to do, and writes decap-server's own words to its
 * log. A "not found" is an answer, not a refusal (Decap asks whether an entry has a draft), and passes
 * as it is. And an entry's draft without the studio's own files on its branch (the approval).
 */
import { LEDGER_FILE, TEXT_DIR } from "../../lib/approval/ledger.ts";
import { logLine } from "../logging.ts";

export interface DecapAnswer {
  status: number;
  body: string;
}

/** What each action does, as a person would say it ("The studio could not save this entry"). */
const DOING: Record<string, string> = {
  persistEntry: "save this entry",
  updateUnpublishedEntryStatus: "change this entry's status",
  deleteUnpublishedEntry: "discard this draft",
  publishUnpublishedEntry: "publish this entry",
  unpublishedEntry: "open this entry's draft",
  unpublishedEntries: "list the entries in the workflow",
  unpublishedEntryDataFile: "open this entry's draft",
  entriesByFolder: "list the entries",
  entriesByFiles: "open these entries",
  getEntry: "open this entry",
};

const bodyError = (body: string) => {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    return String(parsed.error ?? parsed.message ?? body);
  } catch {
    return body;
  }
};

/** decap-server's answer as the studio passes it on: as it is when it is OK or "not found", else one sentence of the studio's. */
export function inStudioWords(action: string, answer: DecapAnswer): DecapAnswer {
  if (answer.status < 300 || answer.status === 404) return answer;
  logLine("decap-server refused", { action, status: answer.status, error: bodyError(answer.body).slice(0, 500) });
  const doing = DOING[action] ?? "do that";
  const error =
    answer.status >= 500
      ? `The studio could not ${doing}: its copy of the site's repository failed. Nothing was changed; try again, and tell the firm's IT if it happens again.`
      : `The studio could not ${doing}: the editor asked for something the studio does not accept. Nothing was changed; reload the page and try again.`;
  return { status: answer.status >= 500 ? 502 : 422, body: JSON.stringify({ error }) };
}

/** What the studio's approval commit writes on an entry's branch (workflow/approve.ts): the ledger and the approved texts. */
const isApproval = (path: unknown) => path === LEDGER_FILE || String(path).startsWith(`${TEXT_DIR}/`);

/**
 * An entry's draft (`unpublishedEntry`) as Decap is told of it: the files its branch changes, without
 * the approval. Decap's editorial workflow takes every changed file but the entry's own for the entry's
 * media: it would fetch the ledger and the approved texts, hold them as `blob:` URLs and read them back
 * on the next save, which the admin page's policy (`connect-src 'self'`) refuses ("Failed to persist
 * entry"), so an approved entry could not be saved again. The files stay on the branch as they are:
 * decap-server's save writes what Decap sends and removes only binary files Decap no longer lists (these
 * are text), and an edit leaves the ledger naming the text that was approved, which no longer matches
 * the page's (the gate compares the texts' hashes), so the page needs approving again.
 */
export function withoutApprovals(answer: DecapAnswer): DecapAnswer {
  if (answer.status >= 300) return answer;
  const draft = JSON.parse(answer.body) as { diffs?: unknown };
  if (!Array.isArray(draft.diffs)) return answer;
  const diffs = draft.diffs.filter((diff: { path?: unknown } | null) => !isApproval(diff?.path));
  return { ...answer, body: JSON.stringify({ ...draft, diffs }) };
}
