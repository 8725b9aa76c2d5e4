/**
 * The contact form's life on the page. Consent decides how it may load: with Accept All (and no Global
 * Privacy Control) it loads as the visitor reaches the contact section, however they got there; otherwise
 * a click loads it for this page view. Once asked for, the provider's script is on the page while the
 * visitor is at the section and removed when they leave (the frame stays, so what they typed stays).
 * The form counts as loaded once both its frame and the provider's script have loaded. A script that
 * fails before it ever loaded, or a form still not loaded after 10 s, gives way to the e-mail. The
 * order of the two outcomes does not matter: a blocked provider makes the browser fire the frame's
 * `load` for its error page, sometimes before the script's `error`, and must still end in the e-mail.
 */
export interface FormEmbedState {
  /** True once the island has read consent; until then it shows what the server rendered. */
  ready: boolean;
  /** Consent allows loading without a click (accepted, no GPC). */
  auto: boolean;
  /** The contact section is in the viewport. */
  inView: boolean;
  /** Who asked for the form: Accept All at the section ("auto"), or the visitor's click ("click"). */
  requestedBy: "auto" | "click" | null;
  status: "idle" | "loading" | "loaded" | "failed";
  /** The frame fired `load` (for a blocked provider that is the browser's error page: not proof of success). */
  frameLoaded: boolean;
  /** The provider's script has loaded at least once in this page view. */
  scriptLoaded: boolean;
}

export type FormEmbedEvent =
  | { type: "consent"; auto: boolean }
  | { type: "view"; inView: boolean }
  | { type: "click-load" }
  | { type: "frame-load" }
  | { type: "script-load" }
  | { type: "script-error" }
  | { type: "timeout" };

export const initialFormEmbedState: FormEmbedState = {
  ready: false,
  auto: false,
  inView: false,
  requestedBy: null,
  status: "idle",
  frameLoaded: false,
  scriptLoaded: false,
};

function request(state: FormEmbedState): FormEmbedState {
  if (state.requestedBy || !state.auto || !state.inView) return state;
  return { ...state, requestedBy: "auto", status: "loading", frameLoaded: false };
}

/** Loading ends in "loaded" once the frame and the script have both loaded. */
function settle(state: FormEmbedState): FormEmbedState {
  return state.status === "loading" && state.frameLoaded && state.scriptLoaded ? { ...state, status: "loaded" } : state;
}

export function nextFormEmbedState(state: FormEmbedState, event: FormEmbedEvent): FormEmbedState {
  switch (event.type) {
    case "consent":
      // Withdrawing the consent that loaded the form takes it away again; a click's own consent stays.
      if (!event.auto && state.requestedBy === "auto")
        return { ...state, ready: true, auto: false, requestedBy: null, status: "idle", frameLoaded: false };
      return request({ ...state, ready: true, auto: event.auto });
    case "view":
      return request({ ...state, inView: event.inView });
    case "click-load":
      return state.requestedBy ? state : { ...state, requestedBy: "click", status: "loading", frameLoaded: false };
    case "frame-load":
      return settle({ ...state, frameLoaded: true });
    case "script-load":
      return settle({ ...state, scriptLoaded: true });
    case "script-error":
      // A script that loaded once has done its work: a later re-added copy that fails leaves the form be.
      return state.status === "loading" && !state.scriptLoaded ? { ...state, status: "failed" } : state;
    case "timeout":
      return state.status === "loading" ? { ...state, status: "failed" } : state;
  }
}

/** What the section shows. */
export function formEmbedView(state: FormEmbedState): "placeholder" | "click" | "frame" | "failed" {
  if (state.status === "failed") return "failed";
  if (state.requestedBy) return "frame";
  return state.ready && !state.auto ? "click" : "placeholder";
}

/** The provider's script is on the page while the form is wanted and the visitor is at the section. */
export function wantsEmbedScript(state: FormEmbedState): boolean {
  return state.requestedBy !== null && state.inView && state.status !== "failed";
}

export const EMBED_SCRIPT_SELECTOR = "script[data-form-embed]";

/** Adds the provider's script once; a second call finds the first. */
export function ensureEmbedScript(doc: Document, src: string, on: { load: () => void; error: () => void }): HTMLScriptElement {
  const existing = doc.querySelector<HTMLScriptElement>(EMBED_SCRIPT_SELECTOR);
  if (existing) return existing;
  const script = doc.createElement("script");
  script.src = src;
  script.async = true;
  script.dataset.formEmbed = "";
  script.addEventListener("load", on.load, { once: true });
  script.addEventListener("error", on.error, { once: true });
  doc.body.append(script);
  return script;
}

export function removeEmbedScript(doc: Document): void {
  doc.querySelectorAll(EMBED_SCRIPT_SELECTOR).forEach((node) => node.remove());
}
