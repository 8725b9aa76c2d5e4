/**
 * Every screenshot the visual regression tests compare, in one list. A shot names its baseline
 * (tests/visual/baselines/<name>.png), the page and width, the state a visitor sees, and what is captured.
 * After an intended visual change: `npm run test:visual:update`, then review the changed PNGs in the diff.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { afterScroll, clockAt, CLOCK_FRAME_MS, hydrated, PAGES, type OpenOptions } from "../support/site.ts";

export type Width = 375 | 1440;

export interface Shot {
  /** Baseline file name, without ".png". */
  name: string;
  path: string;
  width: Width;
  /** Windows high-contrast mode (forced colors), as Chromium emulates it. */
  forcedColors?: boolean;
  /** How the page is opened (banner, form provider, popup); see tests/support/site.ts. */
  open: OpenOptions;
  /** Brings the page into the state to capture, after it opened. */
  setup?: (page: Page) => Promise<void>;
  /** "page": the whole page from the top; "viewport": what is on screen; "top": the viewport's top 240 px; or one element. */
  capture: "page" | "viewport" | "top" | ((page: Page) => Locator);
}

export const viewportFor = (width: Width) => ({ width, height: width === 375 ? 812 : 900 });

const WIDTHS: Width[] = [375, 1440];
/** A returning visitor (choice stored) after the popup has run its course: the page as it stays. */
const settled: OpenOptions = { banner: "hidden", skipPopup: true };

/** Scrolls an element into view at once (the page scrolls smoothly unless motion is reduced). */
async function scrollTo(page: Page, selector: string) {
  await page.locator(selector).evaluate((el) => el.scrollIntoView({ block: "start", behavior: "instant" }));
}

async function popupOpen(page: Page) {
  // The landing page's head script shows it at 4 s of page time; the shots reduce motion, so it is there
  // at once, its Close button focused.
  await clockAt(page, 4000);
  const dialog = page.getByRole("dialog", { name: "Under Development" });
  await expect(dialog).toBeVisible();
  await expect(page.locator("body")).toHaveClass(/(^|\s)popup-active(\s|$)/);
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await expect(dialog).toHaveCSS("opacity", "1");
}

async function formNeedsClick(page: Page) {
  await page.getByRole("button", { name: "Reject All" }).click();
  await scrollTo(page, "#contact");
  await expect(page.getByRole("button", { name: "Load the contact form" })).toBeVisible();
}

async function formFailed(page: Page) {
  // Nothing here is timed: the island hydrates on nearness, and the blocked provider's script and frame
  // both fail through events, in either order (src/components/islands/ContactForm/state.ts).
  await scrollTo(page, "#contact");
  await expect(page.locator("#contact").getByRole("status")).toContainText("could not be loaded");
}

async function statusTooltip(page: Page) {
  // Focus wakes the island (client:when="intent"); once Radix is loaded it opens the tooltip at once.
  // Nothing of this is timed, so the paused clock stays where it is.
  await page.getByRole("button", { name: "Platform status" }).focus();
  await hydrated(page, "StatusDot");
  await expect(page.getByRole("tooltip")).toContainText("does not report");
}

async function legalReading(page: Page) {
  // The fourth section, reached from the contents column: the column stays, the section is marked (in
  // the animation frame after the scroll, which the paused clock runs once the scroll has ended).
  const contents = page.getByRole("navigation", { name: "On this page" });
  await afterScroll(page, () => contents.getByRole("link").nth(3).click());
  await page.clock.runFor(CLOCK_FRAME_MS);
  await expect(contents.locator('[aria-current="true"]')).toHaveCount(1);
}

const formBox = (page: Page) => page.locator("[data-form-state]");
const header = (page: Page) => page.locator("header[data-scrolled]");

export const SHOTS: Shot[] = [
  // Every page, whole, at both widths, header at the top.
  ...PAGES.flatMap((p) =>
    WIDTHS.map((width): Shot => ({ name: `${p.name}-${width}`, path: p.path, width, open: settled, capture: "page" })),
  ),
  // The disclosures index, whole, at both widths (not in PAGES yet: tests/support/site.ts lists the documents alone).
  ...WIDTHS.map((width): Shot => ({ name: `disclosures-${width}`, path: "/disclosures", width, open: settled, capture: "page" })),
  // What a returning visitor sees first: the header at the top over the hero (the tolerance proof's page too).
  ...WIDTHS.map((width): Shot => ({ name: `home-top-${width}`, path: "/", width, open: settled, capture: "viewport" })),
  // A first visit: the cookie banner over the hero.
  ...WIDTHS.map((width): Shot => ({ name: `home-banner-${width}`, path: "/", width, open: { banner: "shown" }, capture: "viewport" })),
  // The Under Development popup at its full opacity.
  ...WIDTHS.map((width): Shot => ({
    name: `home-popup-${width}`,
    path: "/",
    width,
    open: { banner: "hidden" },
    setup: popupOpen,
    capture: "viewport",
  })),
  // The contact form after Reject All (click to load), and when the provider fails (the e-mail instead).
  ...WIDTHS.map((width): Shot => ({
    name: `form-click-to-load-${width}`,
    path: "/",
    width,
    open: { banner: "shown", skipPopup: true },
    setup: formNeedsClick,
    capture: formBox,
  })),
  ...WIDTHS.map((width): Shot => ({
    name: `form-fallback-${width}`,
    path: "/",
    width,
    open: { banner: "hidden", form: "abort", skipPopup: true },
    setup: formFailed,
    capture: formBox,
  })),
  // A tooltip open: the status dot's, under the header.
  ...WIDTHS.map((width): Shot => ({
    name: `status-tooltip-${width}`,
    path: "/",
    width,
    open: settled,
    setup: statusTooltip,
    capture: "top",
  })),
  // A legal page while reading: the contents column beside the text, the current section marked.
  { name: "legal-reading-1440", path: "/terms-of-service", width: 1440, open: settled, setup: legalReading, capture: "viewport" },
  // Windows high-contrast mode: buttons, cards, banner and popup keep their edges.
  ...WIDTHS.map((width): Shot => ({
    name: `home-forced-colors-${width}`,
    path: "/",
    width,
    forcedColors: true,
    open: { banner: "shown" },
    capture: "viewport",
  })),
  {
    name: "home-popup-forced-colors-1440",
    path: "/",
    width: 1440,
    forcedColors: true,
    open: { banner: "hidden" },
    setup: popupOpen,
    capture: "viewport",
  },
  {
    name: "legal-forced-colors-1440",
    path: "/terms-of-service",
    width: 1440,
    forcedColors: true,
    open: { banner: "shown" },
    setup: legalReading,
    capture: "viewport",
  },
  { name: "header-forced-colors-1440", path: "/", width: 1440, forcedColors: true, open: settled, capture: header },
];
