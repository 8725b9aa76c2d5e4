/**
 * Approval before publication (FINRA Rule 2210(b)(1)): the ledger of approved page texts, the check
 * the production build runs against it, and the draft marking of preview and dev pages.
 * Pure functions: the clock and the files are passed in by scripts/approve.ts, integrations/approval
 * and the dev middleware.
 */
import { z } from "zod";
import { select } from "hast-util-select";
import { insertionPoints, parseHtml } from "../html.ts";
import { sourcesOf } from "./sources.ts";
import { pageStem } from "../pages.ts";
import { TEXT_RULE, TEXT_RULES } from "./text.ts";
import { REVIEW_KINDS } from "./reviews.ts";

/** Repository paths of the ledger and of the approved texts (one file per page, for review in diffs). */
export const LEDGER_FILE = "approvals/ledger.json";
export const TEXT_DIR = "approvals/text";
/** Written by the preview build beside its pages (a dotfile: never served), read by `npm run approve`. */
export const PREVIEW_TEXTS_FILE = ".approval-texts.json";

export const DRAFT_NOTICE = "Draft: not approved for publication";

const approvalSchema = z.strictObject({
  /** SHA-256 (hex) of the page text, as `pageTextHash` computes it. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex digits"),
  /** The rule of the text the hash is of (text.ts); absent in approvals made before link targets were part of it: `page-text/1`. */
  textRule: z.enum(TEXT_RULES).optional(),
  /** The registered principal, free text: "Pat Example, Series 24". */
  approvedBy: z.string().trim().min(1),
  /** When, in UTC (ISO 8601). */
  approvedOn: z.iso.datetime(),
  /** Recorded by the content studio from a signed-in principal: who, as the roster names them. */
  principal: z
    .strictObject({ email: z.email(), name: z.string().min(1), crd: z.string().min(1), registration: z.string().min(1) })
    .optional(),
  /** The commit of the entry's branch the principal reviewed (studio approvals). */
  commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/, "a full commit hash")
    .optional(),
  /** The roster's exception used to approve a change the principal wrote (FINRA Rule 3110(b)(6)(C)): its reason. */
  selfApprovalException: z.string().min(1).optional(),
  /**
   * A review of the page (issue 54, decision 0056): "no change", a principal's review of unchanged words;
   * "changed", an approval of the page's own changed words. Absent: an approval that is no review (a
   * change of the text rule, of the shared parts, or of the "Last reviewed" line alone).
   */
  review: z.enum(REVIEW_KINDS).optional(),
  /** The site configuration's material facts when approved (lib/approval/facts.ts): a later change makes the page due for review. */
  facts: z.record(z.string(), z.string()).optional(),
  /** The moment the principal approved it to go live, in UTC, and the firm's zone it was chosen in (issue 56). */
  publishAt: z.strictObject({ at: z.iso.datetime(), timeZone: z.string().min(1) }).optional(),
});

const ledgerSchema = z.strictObject({
  /** Per page path ("/", "/privacy-policy", "/404"): the approval in force and, oldest first, the ones it replaced. */
  pages: z.record(z.string().regex(/^\/[^\s]*$/), approvalSchema.extend({ history: z.array(approvalSchema) })),
});

export type Approval = z.infer<typeof approvalSchema>;
export type Ledger = z.infer<typeof ledgerSchema>;

export const emptyLedger = (): Ledger => ({ pages: {} });

/** Parses the ledger; throws one message naming the file and each bad field. */
export function parseLedger(json: string, file = LEDGER_FILE): Ledger {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : error})`, { cause: error });
  }
  const result = ledgerSchema.safeParse(data);
  if (!result.success) {
    throw new Error(`${file}: ${result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
  }
  return result.data;
}

const approvalFields = ({
  sha256,
  textRule,
  approvedBy,
  approvedOn,
  principal,
  commit,
  selfApprovalException,
  review,
  facts,
  publishAt,
}: Approval): Approval => ({
  sha256,
  ...(textRule ? { textRule } : {}),
  approvedBy,
  approvedOn,
  ...(principal ? { principal } : {}),
  ...(commit ? { commit } : {}),
  ...(selfApprovalException ? { selfApprovalException } : {}),
  ...(review ? { review } : {}),
  ...(facts ? { facts } : {}),
  ...(publishAt ? { publishAt } : {}),
});

/** What the studio adds to an approval beside the name (the roster's record, the commit reviewed). */
export type ApprovalDetails = Pick<Approval, "principal" | "commit" | "selfApprovalException" | "review" | "facts" | "publishAt">;

/** Pages sorted by path and fields in one order, so that a diff of the ledger shows only what changed. */
export function serializeLedger(ledger: Ledger): string {
  const pages = Object.fromEntries(
    Object.keys(ledger.pages)
      .sort()
      .map((path) => {
        const entry = ledger.pages[path]!;
        return [path, { ...approvalFields(entry), history: entry.history.map(approvalFields) }];
      }),
  );
  return `${JSON.stringify({ pages }, null, 2)}\n`;
}

/** ISO 8601 in UTC to the second: what the ledger records as `approvedOn`. */
export const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Records an approval of `sha256` for a page. A text that is already the approved one is left as it
 * was (re-running `--all` approves only what changed), unless it is a review, which is always recorded;
 * otherwise the approval in force moves to the history.
 */
export function recordApproval(
  ledger: Ledger,
  page: string,
  sha256: string,
  approvedBy: string,
  now: Date,
  details: ApprovalDetails = {},
): { ledger: Ledger; changed: boolean } {
  const current = ledger.pages[page];
  if (current?.sha256 === sha256 && !details.review) return { ledger, changed: false };
  const by = approvedBy.trim().replace(/\s+/g, " ");
  if (!by) throw new Error("--by needs the approving principal's name");
  const history = current ? [...current.history, approvalFields(current)] : [];
  const entry = { ...approvalFields({ sha256, textRule: TEXT_RULE, approvedBy: by, approvedOn: isoSeconds(now), ...details }), history };
  return { ledger: { pages: { ...ledger.pages, [page]: entry } }, changed: true };
}

/** Where the approved text of a page is kept: "/" → approvals/text/index.txt, "/a" → approvals/text/a.txt. */
export const textFileOf = (page: string) => `${TEXT_DIR}/${pageStem(page)}.txt`;

/** The approve command for some pages, as a reader can paste it. */
export const approveCommand = (pages: string[]) => `npm run approve -- ${pages.join(" ")} --by "<principal's name, registration>"`;

export interface PageCheck {
  page: string;
  sha256: string;
}

/** Pages whose text is not the approved one (changed, or never approved), in the order given. */
export function unapprovedPages<T extends PageCheck>(pages: T[], ledger: Ledger): Array<T & { reason: "changed" | "new" }> {
  return pages.flatMap((p) => {
    const entry = ledger.pages[p.page];
    if (entry?.sha256 === p.sha256) return [];
    return [{ ...p, reason: entry ? ("changed" as const) : ("new" as const) }];
  });
}

/** One line per unapproved page: its path, the files its text is built from, and the command that approves it. */
export function failureLine(page: string, reason: "changed" | "new", root: string): string {
  const sources = sourcesOf(page, root);
  const what = reason === "new" ? "has never been approved" : "differs from its approved text";
  const from = sources
    ? `built from ${sources.content.join(", ")}, with ${sources.templates.join(", ")} and the shared layout, header, footer and banner`
    : `not in the table of lib/approval/sources.ts: add its sources there`;
  return `approval: ${page} ${what} (${from}); to approve it: ${approveCommand([page])}`;
}

/** Plain CSS for the draft banner: added to preview and dev pages only, so the published CSS carries none of it. */
export const DRAFT_CSS =
  ".approval-draft{background:#7f1d1d;color:#fff;font:600 1rem/1.5 system-ui,sans-serif;padding:.5rem 1rem;text-align:center}" +
  "@media print{.approval-draft{background:none;color:#000;border:2px solid #000}}";

const DRAFT_BANNER = `<aside class="approval-draft" aria-label="Approval status" data-approval-draft><p>${DRAFT_NOTICE}</p></aside>`;
const DRAFT_STYLE = `<style>${DRAFT_CSS}</style>`;
const DRAFT_NOINDEX = '<meta name="robots" content="noindex">';

/**
 * A page marked by `markDraft` as it was built, byte for byte (the content studio compares built pages
 * without the mark). The robots tag is taken off only where the mark added it: right after the style.
 */
export const unmarkDraft = (html: string) =>
  html.replace(DRAFT_BANNER, "").replace(`${DRAFT_STYLE}${DRAFT_NOINDEX}`, "").replace(DRAFT_STYLE, "");

/**
 * Marks a page as a draft: a `noindex` robots tag, and a visible banner as the first thing in <body>.
 * The banner is styled by a <style> element, never a style attribute, so the build's CSP hashes allow it.
 */
export function markDraft(html: string): string {
  const tree = parseHtml(html);
  const { headEnd, bodyStart } = insertionPoints(html, tree);
  const hasNoindex = select('head meta[name="robots" i][content*="noindex" i]', tree) !== undefined;
  // The style first: what follows it is the mark's own robots tag or the end of <head>, never the page's.
  const head = `${DRAFT_STYLE}${hasNoindex ? "" : DRAFT_NOINDEX}`;
  return html.slice(0, headEnd) + head + html.slice(headEnd, bodyStart) + DRAFT_BANNER + html.slice(bodyStart);
}
