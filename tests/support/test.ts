import { test as base, expect, type Page } from "@playwright/test";

const pageErrors = new WeakMap<Page, string[]>();

/** Uncaught errors the page has thrown so far (collected for every test by the fixture below). */
export function uncaughtErrors(page: Page): string[] {
  return pageErrors.get(page) ?? [];
}

/** Fails when the page threw an uncaught error or shows the error screen. */
export async function expectHealthy(page: Page) {
  expect(uncaughtErrors(page), "uncaught errors in the page").toEqual([]);
  await expect(page.getByText("Unexpected Application Error!"), "the error screen is showing").toHaveCount(0);
}

/**
 * Playwright's test with one addition: every test fails if its page threw an uncaught error or shows
 * "Unexpected Application Error!" by the end. A test that provokes one on purpose sets
 * `test.use({ allowPageErrors: true })`.
 */
export const test = base.extend<{ allowPageErrors: boolean }>({
  allowPageErrors: [false, { option: true }],
  page: async ({ page, allowPageErrors }, run) => {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on("pageerror", (error) => errors.push(error.message));
    await run(page);
    if (!allowPageErrors && !page.isClosed()) await expectHealthy(page);
  },
});

export { expect };
