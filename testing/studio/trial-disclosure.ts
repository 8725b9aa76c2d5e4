/**
 * A disclosure's steps in Decap's admin, as an editor takes them: a new one from the collection's form,
 * saved (or refused), and its withdrawal. For the studio's tests and the screenshots
 * (`npm run screenshots:disclosure`); the admin's other steps are in trial-admin.ts.
 */
import type { Page } from "@playwright/test";
import { openAdmin } from "./trial-admin.ts";
import { STUDIO_WAIT_MS } from "./browser.ts";

export interface NewDisclosure {
  title: string;
  order: number;
  description: string;
  /** YYYY-MM-DD */
  lastUpdated: string;
  /** Markdown, lines separated by "\n" (each "## " line a section). */
  body: string;
}

/** Opens a new disclosure's form and fills every field as a person types them; nothing is saved yet. */
/** A new disclosure the firm might add: a fee schedule for the ATS's subscribers, two sections. */
export const FEE_SCHEDULE: NewDisclosure = {
  title: "Fee Schedule",
  order: 2,
  description: "The fees our broker-dealer charges ATS subscribers for order entry, execution and settlement, and when they are billed.",
  lastUpdated: "2026-11-20",
  body: "## Fees for ATS Subscribers\n\nEach executed order is charged a fee per share, billed monthly.\n\n## Changes to Fees\n\nWe give subscribers thirty days' notice of any change.",
};

export async function fillNewDisclosure(page: Page, origin: string, disclosure: NewDisclosure) {
  await openAdmin(page, origin, "/collections/disclosures/new", page.getByLabel("Title", { exact: true }));
  await page.getByLabel("Title", { exact: true }).fill(disclosure.title);
  await page.getByLabel("Order", { exact: true }).fill(String(disclosure.order));
  await page.getByLabel("Description", { exact: true }).fill(disclosure.description);
  await page.getByLabel("Last updated", { exact: true }).fill(disclosure.lastUpdated);
  const text = page.locator("[data-slate-editor]").first();
  await text.click();
  // Each line as typed, Enter between them: the raw Markdown editor keeps the lines as written.
  for (const [i, line] of disclosure.body.split("\n").entries()) {
    if (i > 0) await page.keyboard.press("Enter");
    if (line) await page.keyboard.insertText(line);
  }
}

/**
 * Saves the entry on screen; resolves once Decap says it is saved, or once the studio's refusal is shown
 * (a refusal of any of the requests the save makes: a new page's address is refused as Decap asks
 * whether it has a draft, before the save itself). Notices already on screen are not this save's.
 */
export async function save(page: Page): Promise<{ saved: true } | { saved: false; refusal: string }> {
  await page.locator("[data-studio-notice]").evaluateAll((notices) => notices.forEach((n) => n.setAttribute("data-seen", "")));
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const saved = page.getByText("Changes saved").first();
  const refused = page.locator('[data-studio-notice^="refused-"]:not([data-seen])').first();
  await saved.or(refused).first().waitFor({ timeout: STUDIO_WAIT_MS });
  if (await refused.isVisible()) return { saved: false, refusal: (await refused.locator("p").first().textContent()) ?? "" };
  return { saved: true };
}

/** Sets the day a disclosure is withdrawn, on its entry, and saves: a draft like any edit. */
export async function withdraw(page: Page, origin: string, slug: string, day: string) {
  await openAdmin(page, origin, `/collections/disclosures/entries/${slug}`);
  // An optional field's label reads "Withdrawn (optional)".
  await page.getByLabel(/^Withdrawn/).fill(day);
  const outcome = await save(page);
  if (!outcome.saved) throw new Error(`the withdrawal was refused: ${outcome.refusal}`);
}
