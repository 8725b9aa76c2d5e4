/**
 * Names for the controls Decap's editor draws as an icon alone (axe: aria-command-name, button-name,
 * frame-title, aria-input-field-name): each list item's drag handle, its show-or-hide toggle and its
 * remove button, named by the list's label and the item's place ("Move value card 2"), the raw Markdown
 * editor by its field's label, and the preview pane's frame; and Decap's root as the page's main landmark. Set on the
 * elements as Decap renders them, without forking Decap; tests/studio/editor-a11y.test.ts runs axe on
 * the hero entry's editor, and studio/README.md says what of Decap's editor is still below WCAG 2.2 AA.
 */

/** "Value cards" → "value card", "Capabilities" → "capability": the list labels of the studio's config (studio/config.ts). */
export const singular = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/ies$/, "y")
    .replace(/([^s])s$/, "$1");

const HANDLE = '[role="button"][aria-roledescription="sortable"]';

/** Written only when it differs: the same name written again would wake every observer of the page for nothing. */
function name(element: Element | null, label: string) {
  if (element && element.getAttribute("aria-label") !== label) element.setAttribute("aria-label", label);
}

/** Decap 3.16's list item: a top bar holding [toggle button, drag handle, remove button], in a list inside the field's control. */
function nameControls() {
  for (const handle of document.querySelectorAll(HANDLE)) {
    const item = handle.parentElement?.parentElement;
    const list = item?.parentElement;
    const field = list?.closest('[id*="-field-"]');
    if (!item || !list || !field) continue;
    const label = document.querySelector(`label[for="${CSS.escape(field.id)}"]`)?.textContent ?? "item";
    const items = [...list.children].filter((child) => child.querySelector(`:scope > * > ${HANDLE}`));
    const what = `${singular(label)} ${items.indexOf(item) + 1}`;
    name(handle, `Move ${what}`);
    const [toggle, remove] = [handle.previousElementSibling, handle.nextElementSibling];
    if (toggle?.tagName === "BUTTON" && !toggle.textContent?.trim()) name(toggle, `Show or hide ${what}`);
    if (remove?.tagName === "BUTTON" && !remove.textContent?.trim()) name(remove, `Remove ${what}`);
  }
  // The raw Markdown editor (a Slate editable, role textbox) carries no name: its field's label is it (axe: aria-input-field-name).
  for (const editor of document.querySelectorAll('[data-slate-editor="true"]')) {
    const label = editor.closest('[class*="-ControlContainer"]')?.querySelector("label")?.textContent?.trim();
    if (label && !editor.hasAttribute("aria-labelledby")) name(editor, label);
  }
  // Decap's whole app is the page's main content (the studio's dock beside it is its own navigation and
  // notices): one landmark on Decap's root element, which its bootstrap makes, so no styled part is touched.
  const root = document.getElementById("nc-root");
  if (root && root.getAttribute("role") !== "main") root.setAttribute("role", "main");
  const preview = document.getElementById("preview-pane");
  if (preview && !preview.title) preview.title = "Preview of this entry, drawn with the site's own components";
}

export function nameDecapControls() {
  nameControls();
  new MutationObserver(nameControls).observe(document.body, { childList: true, subtree: true });
}
