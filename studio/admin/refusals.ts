/**
 * One voice for a refusal in the admin page (issue 49): the studio's notice says it, once, in the studio's
 * words. Decap reports the same failure in a toast of its own ("Failed to persist entry: API_ERROR: …",
 * its error's class name in front of the studio's sentence); that toast is taken away as it appears, so
 * the person reads the sentence once, in the dock, where it stays until dismissed. And Decap's failed
 * save leaves a rejected promise nobody handles (its editor awaits the save without a catch): the admin
 * page handles the ones whose refusal it has shown, so nothing is reported as an error in the page.
 */

/** How long a sentence the studio said takes away Decap's toast of it: Decap shows its toast at once. */
const SAID_FOR_MS = 30_000;
const said: Array<{ text: string; at: number }> = [];

/** Decap names its API errors so; every answer of the git API that is not OK gets the studio's notice (main.ts). */
const DECAP_API_ERROR = "API_ERROR";

/** The studio has said this (a refusal's sentence, or the words of a failed request): Decap's toast repeating it is taken away. */
export function saidByStudio(text: string) {
  said.push({ text, at: Date.now() });
}

const repeats = (toast: Element) => {
  const words = toast.textContent ?? "";
  const since = Date.now() - SAID_FOR_MS;
  return words.includes(DECAP_API_ERROR) || said.some(({ text, at }) => at >= since && text && words.includes(text));
};

/** Hides Decap's toasts that repeat what the studio said (react-toastify removes them when Decap dismisses them, 8 s on). */
function replaceToasts(nodes: Iterable<Node>) {
  for (const node of nodes) {
    if (!(node instanceof Element)) continue;
    const toasts = node.matches(".Toastify__toast") ? [node] : [...node.querySelectorAll(".Toastify__toast")];
    for (const toast of toasts)
      if (toast instanceof HTMLElement && !toast.hidden && repeats(toast)) {
        toast.hidden = true;
        toast.dataset.studioReplaced = "";
      }
  }
}

/**
 * What Decap rejects a refused save with: its failure action (`{ type: "ENTRY_PERSIST_FAILURE", … }`),
 * when the studio answered; nothing at all, when its own field rules refused the save (the fields say
 * why, in red, and Decap's toast says a field is missing).
 */
const FAILURE = /^(?:ENTRY_PERSIST|UNPUBLISHED_ENTRY_(?:PERSIST|STATUS_CHANGE|PUBLISH|DELETE)|ENTRY_DELETE)_FAILURE$/;
/** When the person last pressed Decap's Save: its field rules reject the save in the same turn, with no reason given. */
let savePressed = -Infinity;
const SAVE_TURN_MS = 5_000;

function handled(reason: unknown): boolean {
  if (reason === undefined) return Date.now() - savePressed < SAVE_TURN_MS;
  const type = (reason as { type?: unknown } | null)?.type;
  return typeof type === "string" && FAILURE.test(type);
}

export function oneVoice() {
  new MutationObserver((records) => {
    for (const record of records) replaceToasts(record.addedNodes);
  }).observe(document.body, { childList: true, subtree: true });
  document.addEventListener(
    "click",
    (event) => {
      const button = (event.target as Element | null)?.closest?.("button");
      if (button?.textContent?.trim() === "Save" && button.closest('[class*="-ToolbarContainer"]')) savePressed = Date.now();
    },
    true,
  );
  window.addEventListener("unhandledrejection", (event) => {
    if (handled(event.reason)) event.preventDefault();
  });
}
