/**
 * The studio's own notices beside Decap's admin: they stay until the person dismisses them (Decap's
 * toasts vanish after a few seconds, under later ones), say what happened in a sentence, and link to
 * the entry's review when there is one. A live region announces each.
 *
 * They sit in the dock at the foot of the window with the studio's bar, never over the page: the dock's
 * height is kept in `--studio-dock`, and the admin's stylesheet ends Decap's editor (its fields and its
 * preview pane) above it (studio/http/admin-assets.ts). On a short window (400 % zoom: 320 × 256) a
 * notice is one line, its text cut short, until its "Details" button (aria-expanded) opens it, so that
 * the dock leaves the window to Decap's toolbar and its Save; the stylesheet shows that button there
 * only, and a tall window shows every notice whole as before.
 */
const DOCK_ID = "studio-dock";
const REGION_ID = "studio-notices";
let shownCount = 0;

/** The dock at the foot of the window: the notices, then the bar. */
export function dock(): HTMLElement {
  const found = document.getElementById(DOCK_ID);
  if (found) return found;
  const node = Object.assign(document.createElement("div"), { id: DOCK_ID });
  const notices = Object.assign(document.createElement("div"), { id: REGION_ID });
  notices.setAttribute("role", "region");
  notices.setAttribute("aria-label", "Studio notices");
  node.append(notices);
  document.body.append(node);
  new ResizeObserver(() => document.documentElement.style.setProperty("--studio-dock", `${node.offsetHeight}px`)).observe(node);
  return node;
}

const region = () => dock().querySelector<HTMLElement>(`#${REGION_ID}`)!;

export interface Notice {
  /** Identifies a notice shown again (the same refusal twice shows once). */
  key: string;
  text: string;
  kind: "error" | "info";
  link?: { href: string; text: string };
}

export function showNotice(notice: Notice): HTMLElement {
  const before = document.querySelector(`[data-studio-notice="${CSS.escape(notice.key)}"]`);
  // A notice shown again (a principal's decision on the open entry) stays open if the person had opened it.
  const opened = before?.querySelector(":scope > [aria-expanded]")?.getAttribute("aria-expanded") === "true";
  before?.remove();
  const box = document.createElement("div");
  box.className = `studio-notice studio-notice-${notice.kind}`;
  box.dataset.studioNotice = notice.key;
  box.setAttribute("role", notice.kind === "error" ? "alert" : "status");
  const text = document.createElement("p");
  text.id = `studio-notice-text-${++shownCount}`;
  text.textContent = notice.text;
  const details = document.createElement("button");
  details.type = "button";
  details.className = "studio-notice-details";
  details.textContent = "Details";
  details.setAttribute("aria-controls", text.id);
  details.setAttribute("aria-expanded", String(opened));
  details.addEventListener("click", () => details.setAttribute("aria-expanded", String(details.getAttribute("aria-expanded") !== "true")));
  box.append(text, details);
  if (notice.link) linkNotice(box, notice.link);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "studio-notice-dismiss";
  close.textContent = "Dismiss";
  close.addEventListener("click", () => box.remove());
  box.append(close);
  region().append(box);
  return box;
}

/** Adds a link to a notice shown (before its Dismiss button): a link found once the notice is up, such as the review of an entry that exists. */
export function linkNotice(box: HTMLElement, target: { href: string; text: string }) {
  const link = document.createElement("a");
  link.href = target.href;
  link.textContent = target.text;
  box.insertBefore(link, box.querySelector(":scope > .studio-notice-dismiss"));
}

export const clearNotice = (key: string) => document.querySelector(`[data-studio-notice="${CSS.escape(key)}"]`)?.remove();
