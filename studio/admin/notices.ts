/**
 * The studio's own notices beside Decap's admin: they stay until the person dismisses them (Decap's
 * toasts vanish after a few seconds, under later ones), say what happened in a sentence, and link to
 * the entry's review when there is one. A live region announces each.
 *
 * They sit in the dock at the foot of the window with the studio's bar, never over the page: the dock's
 * height is kept in `--studio-dock`, and the admin's stylesheet ends Decap's editor (its fields and its
 * preview pane) above it (studio/http/admin-assets.ts).
 */
const DOCK_ID = "studio-dock";
const REGION_ID = "studio-notices";

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
  document.querySelector(`[data-studio-notice="${CSS.escape(notice.key)}"]`)?.remove();
  const box = document.createElement("div");
  box.className = `studio-notice studio-notice-${notice.kind}`;
  box.dataset.studioNotice = notice.key;
  box.setAttribute("role", notice.kind === "error" ? "alert" : "status");
  const text = document.createElement("p");
  text.textContent = notice.text;
  box.append(text);
  if (notice.link) linkNotice(box, notice.link);
  const close = document.createElement("button");
  close.type = "button";
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
  box.insertBefore(link, box.querySelector(":scope > button"));
}

export const clearNotice = (key: string) => document.querySelector(`[data-studio-notice="${CSS.escape(key)}"]`)?.remove();
