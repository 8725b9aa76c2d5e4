/**
 * decap-server's refusals, in the studio's words. decap-server checks each request against its own
 * schema (joi) and answers a failed check with the library's message (`"params.slug" is not allowed to
 * be empty`), a missing branch with its name, and a failure of git with "Unknown error". None of that
 * is for the person at the editor: the studio answers one sentence saying what could not be done and
 * what to do, and writes decap-server's own words to its log. A "not found" is an answer, not a
 * refusal (Decap asks whether an entry has a draft), and passes as it is.
 */
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
