/**
 * Playwright's `expect` for the suites Vitest runs against a real browser (the studio's, the records'),
 * with the ceiling playwright.config.ts gives its own: a wait ends when its state arrives, and 5 s (the
 * library's default) was too short on a loaded machine for a page that follows a build, such as a
 * capture's replay with a build running beside it.
 */
import { expect } from "@playwright/test";

export const expectPage = expect.configure({ timeout: 15_000 });
