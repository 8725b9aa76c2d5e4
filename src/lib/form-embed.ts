/**
 * The contact form's life: waiting until the visitor comes near (or a click when embeds need consent),
 * then loading the provider's script and frame, then loaded or failed (fallback with the e-mail).
 */
export type FormState = "waiting" | "needs-click" | "loading" | "loaded" | "failed";
export type FormEvent = "require-click" | "near" | "click-load" | "frame-load" | "script-error" | "timeout";

export function nextFormState(state: FormState, event: FormEvent): FormState {
  switch (state) {
    case "waiting":
      if (event === "require-click") return "needs-click";
      return event === "near" || event === "click-load" ? "loading" : state;
    case "needs-click":
      return event === "click-load" ? "loading" : state;
    case "loading":
      if (event === "frame-load") return "loaded";
      if (event === "script-error" || event === "timeout") return "failed";
      return state;
    case "loaded":
      return event === "script-error" ? "failed" : state;
    case "failed":
      return state;
  }
}

export const EMBED_SCRIPT_SELECTOR = "script[data-form-embed]";

/** Adds the provider's script once; a second call finds the first. */
export function ensureEmbedScript(doc: Document, src: string, onError: () => void): HTMLScriptElement {
  const existing = doc.querySelector<HTMLScriptElement>(EMBED_SCRIPT_SELECTOR);
  if (existing) return existing;
  const script = doc.createElement("script");
  script.src = src;
  script.async = true;
  script.dataset.formEmbed = "";
  script.addEventListener("error", onError, { once: true });
  doc.body.append(script);
  return script;
}

export function removeEmbedScript(doc: Document): void {
  doc.querySelectorAll(EMBED_SCRIPT_SELECTOR).forEach((node) => node.remove());
}
