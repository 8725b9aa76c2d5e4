/**
 * The admin page's own module, beside Decap's bundle (bundled by esbuild as the studio starts, served
 * as /admin/studio.js): who is signed in and a way to sign out; the entry's place in the review (the
 * principal's comment, a link to its review); every refusal of the studio's git API kept on screen
 * until dismissed, naming the page and linking to the review; the check before Publish; the preview pane;
 * names for the controls Decap draws without one.
 */
import "./decap.d.ts";
import { nameDecapControls } from "./names.ts";
import { onlyUsableFields } from "./fields.ts";
import { clearNotice, dock, linkNotice, showNotice } from "./notices.ts";
import { oneVoice, saidByStudio } from "./refusals.ts";
import { registerPreviews } from "./preview.ts";

/** The preview templates: one per landing file, one per document collection (studio/http/admin-assets.ts defines it). */
declare const STUDIO_TEMPLATES: string[];

interface Me {
  name: string;
  role: string;
  csrf: string;
  local: boolean;
  /** False for compliance, who reads the entries and changes none. */
  edits: boolean;
}
interface EntryState {
  name: string;
  status: string;
  review: string;
  latest?: { text: string; comment?: string; kind: "decision" | "step" };
  /** A Ready entry's schedule, and what an edit does to it: said before the edit (issue 56). */
  schedule?: string;
}

const reviewOf = (collection: unknown, slug: unknown) => `/admin/review/${String(collection)}/${String(slug)}`;
const entryRoute = () => /^#\/collections\/([\w-]+)\/entries\/([\w-]+)/.exec(location.hash);

function bar(me: Me) {
  const box = document.createElement("nav");
  box.id = "studio-bar";
  box.setAttribute("aria-label", "Studio");
  const who = document.createElement("span");
  who.textContent = `${me.name} · ${me.role}`;
  const approvals = document.createElement("a");
  approvals.href = "/admin/approvals";
  approvals.textContent = "Approvals";
  box.append(who, approvals);
  if (!me.local) {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/auth/logout";
    const token = Object.assign(document.createElement("input"), { type: "hidden", name: "_csrf", value: me.csrf });
    const button = Object.assign(document.createElement("button"), { type: "submit", textContent: "Sign out" });
    form.append(token, button);
    box.append(form);
  }
  dock().append(box);
}

const HINTS: Record<string, string> = {
  draft: "Draft: set Status to In review when it is ready; a principal reviews it before it can be published.",
  pending_review: "In review: a principal reviews it; Publish appears once it is approved.",
  pending_publish: "Approved: it can be published.",
};
let current: EntryState | null = null;

/** Publish is offered only once the entry is approved (Ready); the studio refuses it otherwise anyway. */
function guardPublish() {
  const offered = current?.status === "pending_publish";
  for (const button of document.querySelectorAll<HTMLElement>('span[role="button"][aria-haspopup="true"]')) {
    if (!/^Publish(ing)?$/.test(button.textContent?.trim() ?? "")) continue;
    const dropdown = button.parentElement?.parentElement ?? button;
    if (dropdown.hidden === offered) dropdown.hidden = !offered;
  }
}

/** The entry state last shown ("<route> <state>"): a poll shows only what changed, so a dismissed notice stays dismissed. */
let shown = "";
/** How often an open entry asks where it stands: a principal's decision shows within this, and no request goes out more often. */
const POLL_MS = 4000;

/** The entry's place in the review, above the editor (the principal's comment stays until it is answered). */
async function showEntryState(poll = false) {
  const route = entryRoute();
  if (!poll) {
    current = null;
    guardPublish();
  }
  if (!route) {
    shown = "";
    return clearNotice("entry-state");
  }
  const answer = await fetch(`/admin/entry-state?${new URLSearchParams({ collection: route[1]!, slug: route[2]! })}`).catch(
    () => undefined,
  );
  if (!answer?.ok || entryRoute()?.[0] !== route[0]) return;
  const state = (await answer.json()) as EntryState | null;
  const seen = `${route[0]} ${JSON.stringify(state)}`;
  if (poll && seen === shown) return;
  // Decided by a principal while the entry was open: Decap still shows the status it loaded.
  const movedOn = poll && shown.startsWith(`${route[0]} `) && current?.status !== state?.status;
  shown = seen;
  current = state;
  guardPublish();
  if (!current) return clearNotice("entry-state");
  const latest = current.latest ? ` ${current.latest.text}.${current.latest.comment ? ` "${current.latest.comment}"` : ""}` : "";
  showNotice({
    key: "entry-state",
    kind: current.latest?.kind === "decision" ? "error" : "info",
    text: `${current.name}: ${HINTS[current.status] ?? ""}${latest}${current.schedule ? ` ${current.schedule}` : ""}${movedOn ? " Reload the page to continue from there." : ""}`,
    link: { href: current.review, text: "Open its review" },
  });
}

/** A refusal's notice links to the entry's review only when the entry is in the workflow (a new page refused at its first save has none). */
async function linkReview(notice: HTMLElement, collection: unknown, slug: unknown) {
  if (typeof collection !== "string" || typeof slug !== "string" || !slug) return;
  const answer = await fetch(`/admin/entry-state?${new URLSearchParams({ collection, slug })}`).catch(() => undefined);
  const state = answer?.ok ? ((await answer.json()) as EntryState | null) : null;
  if (state && notice.isConnected) linkNotice(notice, { href: state.review, text: "Open its review" });
}

/** Every refusal of the git API, kept on screen in the studio's words (Decap's own toast of it is taken away: refusals.ts). */
function watchRefusals() {
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const git = new URL(url, location.href).pathname === "/api/v1" && typeof init?.body === "string";
    const { action, params = {} } = git
      ? (JSON.parse(init.body as string) as { action: string; params?: Record<string, unknown> })
      : { action: "", params: {} };
    let response: Response;
    try {
      response = await original(input, init);
    } catch (error) {
      if (git) {
        // Decap's toast would say "TypeError: Failed to fetch": the studio says what it means, once.
        saidByStudio(String(error));
        showNotice({
          key: `refused-${action}`,
          kind: "error",
          text: "The studio did not answer: check the network connection, then try again.",
        });
      }
      throw error;
    }
    if (git) {
      // Decap asks whether an entry has a draft: "no" (404) is an answer, not a refusal.
      if (!response.ok && !(action === "unpublishedEntry" && response.status === 404)) {
        const { error } = (await response
          .clone()
          .json()
          .catch(() => ({}))) as { error?: string };
        const text = error ?? `The studio could not do that (it answered ${response.status}): reload the page and try again.`;
        saidByStudio(text);
        // A save names its entry in its options and its file; the other actions name it directly.
        const saved = (Array.isArray(params.dataFiles) ? params.dataFiles[0] : params.entry) as { slug?: unknown } | undefined;
        const collection = params.collection ?? (params.options as { collectionName?: unknown } | undefined)?.collectionName;
        void linkReview(showNotice({ key: `refused-${action}`, kind: "error", text }), collection, params.slug ?? saved?.slug);
      } else if (action === "publishUnpublishedEntry") {
        // Said once the studio has it from the firm's git host (server mode) or the project (loopback).
        const { message } = (await response
          .clone()
          .json()
          .catch(() => ({}))) as { message?: string };
        clearNotice("entry-state");
        showNotice({ key: "published", kind: "info", text: message ?? "Published." });
      } else if (action === "updateUnpublishedEntryStatus" || action === "persistEntry") void showEntryState();
    }
    return response;
  };
}

async function main() {
  oneVoice();
  watchRefusals();
  const me = (await (await fetch("/admin/session")).json()) as Me;
  bar(me);
  if (!me.edits)
    showNotice({
      key: "read-only",
      kind: "info",
      text: "You read the entries here as compliance: saving, changing a status and publishing are for editors and principals, and the studio refuses them to you.",
    });
  window.CMS.registerEventListener({
    name: "prePublish",
    handler: async ({ entry }) => {
      const query = new URLSearchParams({ collection: String(entry.get("collection")), slug: String(entry.get("slug")) });
      const { refusal } = (await (await fetch(`/admin/approvals/check?${query}`)).json()) as { refusal: string | null };
      if (!refusal) return;
      saidByStudio(refusal);
      showNotice({
        key: "refused-publishUnpublishedEntry",
        kind: "error",
        text: refusal,
        link: { href: reviewOf(entry.get("collection"), entry.get("slug")), text: "Open its review" },
      });
      throw new Error(refusal);
    },
  });
  registerPreviews(STUDIO_TEMPLATES);
  window.addEventListener("hashchange", () => void showEntryState());
  new MutationObserver(guardPublish).observe(document.body, { childList: true, subtree: true });
  // A principal's decision made meanwhile shows within seconds while the entry is open, and as the editor comes back to the tab.
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && void showEntryState(true));
  setInterval(() => document.visibilityState === "visible" && entryRoute() && void showEntryState(true), POLL_MS);
  nameDecapControls();
  onlyUsableFields();
  void showEntryState();
}

void main();
