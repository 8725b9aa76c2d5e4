/**
 * Only the fields a page can use (issue 49): Decap draws one form per collection, so a disclosure's
 * Withdrawn date is on every disclosure's form, though a required disclosure (the business continuity
 * summary, FINRA Rule 4370) can never be withdrawn and a new disclosure cannot start withdrawn. The
 * studio refuses such a save (workflow/new-pages.ts); here the field is not drawn for those pages at
 * all, so nobody fills it, sees the preview call the page withdrawn, and is refused only on saving.
 * Set on Decap's own markup as it renders it (a MutationObserver, as names.ts does), never a fork.
 */

/** The disclosures that cannot be withdrawn (REQUIRED_DISCLOSURES in src/content/schemas/files.ts; studio/http/admin-assets.ts defines it). */
declare const STUDIO_REQUIRED_DISCLOSURES: string[];

const route = () => /^#\/collections\/([\w-]+)\/(?:entries\/([\w-]+)|new)(?:[/?]|$)/.exec(location.hash);

/** Fields not drawn on the entry open now, by field name. */
function unusable(): Set<string> {
  const open = route();
  if (!open || open[1] !== "disclosures") return new Set();
  const slug = open[2];
  return slug === undefined || STUDIO_REQUIRED_DISCLOSURES.includes(slug) ? new Set(["withdrawn"]) : new Set();
}

function hideFields() {
  const hidden = unusable();
  for (const control of document.querySelectorAll<HTMLElement>('[class*="-ControlContainer"]')) {
    const field = control.querySelector(':scope > [id*="-field-"], :scope [id*="-field-"]');
    const name = field?.id.replace(/-field-\d+$/, "");
    const hide = name !== undefined && hidden.has(name) && field?.closest('[class*="-ControlContainer"]') === control;
    // Written only when it changes: the same write again would wake every observer of the page for nothing.
    if (hide !== control.hasAttribute("data-studio-unusable")) control.toggleAttribute("data-studio-unusable", hide);
  }
}

export function onlyUsableFields() {
  hideFields();
  new MutationObserver(hideFields).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("hashchange", hideFields);
}
