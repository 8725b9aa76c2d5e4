/**
 * The studio's own notices beside Decap's admin: they stay until the person dismisses them (Decap's
 * toasts vanish after a few seconds, under later ones), say what happened in a sentence, and link to
 * the entry's review when there is one. A live region announces each.
 */
const REGION_ID = "studio-notices";

function region(): HTMLElement {
  let node = document.getElementById(REGION_ID);
  if (!node) {
    node = document.createElement("div");
    node.id = REGION_ID;
    node.setAttribute("role", "region");
    node.setAttribute("aria-label", "Studio notices");
    document.body.append(node);
  }
  return node;
}

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
  if (notice.link) {
    const link = document.createElement("a");
    link.href = notice.link.href;
    link.textContent = notice.link.text;
    box.append(link);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Dismiss";
  close.addEventListener("click", () => box.remove());
  box.append(close);
  region().append(box);
  return box;
}

export const clearNotice = (key: string) => document.querySelector(`[data-studio-notice="${CSS.escape(key)}"]`)?.remove();
