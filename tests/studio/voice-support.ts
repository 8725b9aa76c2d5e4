/**
 * What a person at Decap's admin is told, for the tests of issue 49's "one voice": every toast Decap
 * raises, with whether it is drawn when the browser next paints (a toast the admin module takes away as
 * it appears is never seen), every promise rejection that nothing in the page handled (an
 * `unhandledrejection` whose default was not prevented), and every uncaught error Playwright reports.
 */
import type { Page } from "@playwright/test";

export interface Heard {
  toasts: Array<{ text: string; shown: boolean }>;
  /** Every promise rejection nothing in the page caught, and whether a listener of the page then handled it. */
  rejections: Array<{ reason: string; handled: boolean }>;
  /** Those nothing handled. */
  unhandled: string[];
  pageErrors: string[];
}

const pageErrors = new WeakMap<Page, string[]>();

/** Starts listening on a page; it applies from the page's next navigation (openAdmin makes one). */
export async function listen(page: Page) {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.addInitScript(() => {
    const heard = { toasts: [] as Array<{ text: string; shown: boolean }>, rejections: [] as Array<{ reason: string; handled: boolean }> };
    Object.assign(window, { __heard: heard });
    // After every listener has had the event: only then is it known whether one of them handled it.
    window.addEventListener("unhandledrejection", (event) =>
      setTimeout(() => heard.rejections.push({ reason: String(event.reason), handled: event.defaultPrevented })),
    );
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll<HTMLElement>(".Toastify__toast")) {
        if (seen.has(toast)) continue;
        seen.add(toast);
        // Just before the paint that would first draw it.
        requestAnimationFrame(() => heard.toasts.push({ text: toast.textContent ?? "", shown: toast.checkVisibility() }));
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

export async function heard(page: Page): Promise<Heard> {
  const inPage = await page.evaluate(() => (window as unknown as { __heard: Pick<Heard, "toasts" | "rejections"> }).__heard);
  const unhandled = inPage.rejections.filter((r) => !r.handled).map((r) => r.reason);
  return { ...inPage, unhandled, pageErrors: [...(pageErrors.get(page) ?? [])] };
}

/** How many times the page shows these words to a sighted reader (the text it draws, hidden parts left out). */
export const timesShown = async (page: Page, words: string) => (await page.locator("body").innerText()).split(words).length - 1;
