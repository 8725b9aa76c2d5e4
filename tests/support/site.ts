import AxeBuilder from "@axe-core/playwright";
import axe, { type AxeResults, type RunOptions } from "axe-core";
import type { Page } from "@playwright/test";
import { expect, expectHealthy } from "./test.ts";
import { CONSENT_STORAGE_KEY } from "../../src/shared/constants.ts";
import { documentFiles } from "../../src/build/content-files.ts";
import { projectRoot } from "../../lib/root.ts";
import { routeFormProvider } from "../../testing/form-provider.ts";

export { DISCLOSURE_PAGES, LEGAL_PAGES } from "./pages.ts";

/** The React islands; each hydrates when it has something to do (src/client/directives/when.ts). */
export const ISLANDS = ["StatusDot", "Highlights", "ContactFormEmbed"] as const;

const island = (page: Page, name: (typeof ISLANDS)[number]) => page.locator(`astro-island[component-url*="/${name}."]`).first();

/** Waits until an island has hydrated (Astro removes its `ssr` attribute then). */
export async function hydrated(page: Page, name: (typeof ISLANDS)[number]) {
  await expect(island(page, name)).not.toHaveAttribute("ssr", { timeout: 10_000 });
}

/**
 * Resolves once the page has rendered `frames` more frames (two unless told): by then its scroll events,
 * IntersectionObserver reports and React effects so far have run. A negative check ("nothing was
 * requested") made after it has seen everything the page decided until then, without guessing a time.
 * Frames are counted with an IntersectionObserver, whose first report on a target comes with the next
 * rendering update (after that update's scroll events), so this works with page.clock paused too: the
 * clock holds requestAnimationFrame, not the browser's rendering.
 */
export const afterFrames = (page: Page, frames = 2) =>
  page.evaluate(
    (count) =>
      new Promise<void>((done) => {
        let left = count;
        const observer = new IntersectionObserver(() => {
          if (--left <= 0) {
            observer.disconnect();
            done();
            return;
          }
          // Observed anew, the target is reported again with the next rendering update.
          observer.unobserve(document.documentElement);
          observer.observe(document.documentElement);
        });
        observer.observe(document.documentElement);
      }),
    frames,
  );

/** Playwright's fake clock runs requestAnimationFrame callbacks every 16 ms of its time. */
export const CLOCK_FRAME_MS = 16;

/**
 * How many rendered frames after a focus, an anchor's click or a scrollTo the page's scroll (instant or
 * smooth) has certainly begun: its first `scroll` event came by the third in Chromium, even under load
 * (the delay is a number of frames, not a time).
 */
export const SCROLL_START_FRAMES = 5;

/**
 * Runs `action` (a key press, a click on an anchor, a scrollTo) and resolves once the page is at rest:
 * if the action scrolled the page, when that scroll has ended (the browser's `scrollend`, after its last
 * `scroll` event; a smooth scroll runs in real time, whatever page.clock does); if not, once the page has
 * rendered SCROLL_START_FRAMES frames without a `scroll` event. With the clock paused, the page's scroll
 * handlers have run by then, but what they left for the next animation frame waits for
 * `page.clock.runFor(CLOCK_FRAME_MS)`. The action must not scroll on its own account first (a click
 * scrolls its target into view): bring the target into view beforehand.
 */
export async function afterScroll(page: Page, action: () => Promise<unknown>) {
  await page.evaluate(armScrollRest, SCROLL_START_FRAMES);
  await action();
  await page.evaluate(() => (window as unknown as { scrollRest: () => Promise<void> }).scrollRest());
}

/**
 * afterScroll's watch, in the page (self-contained, for page.evaluate or, by its source, for code that
 * runs in the page): listens for `scroll` and `scrollend` from now on and leaves `window.scrollRest()`,
 * to be called right after the action, which starts counting frames and resolves once the page is at
 * rest as afterScroll says. Arm it anew before each action.
 */
export function armScrollRest(quietFrames: number) {
  let startCounting = () => {};
  const rest = new Promise<void>((done) => {
    let scrolled = false;
    let frames = 0;
    const onScroll = () => (scrolled = true);
    const finish = () => {
      removeEventListener("scroll", onScroll);
      removeEventListener("scrollend", onEnd);
      observer.disconnect();
      done();
    };
    const onEnd = () => {
      if (scrolled) finish();
    };
    const observer = new IntersectionObserver(() => {
      if (scrolled) return; // it ends with scrollend
      if (++frames >= quietFrames) return finish();
      observer.unobserve(document.documentElement);
      observer.observe(document.documentElement);
    });
    addEventListener("scroll", onScroll, { passive: true });
    addEventListener("scrollend", onEnd);
    startCounting = () => observer.observe(document.documentElement);
  });
  (window as unknown as { scrollRest: () => Promise<void> }).scrollRest = () => {
    startCounting();
    return rest;
  };
}

/** How many islands of the page have hydrated so far. */
export const hydratedCount = (page: Page) => page.locator("astro-island:not([ssr])").count();

/**
 * With page.clock installed: pauses it a little ahead of the page's "now" (time still flows until
 * paused, and a clock cannot be paused in the past). On a busy machine more than the margin may pass
 * between reading the time and pausing: then it reads it again.
 */
export async function pauseClockAhead(page: Page) {
  for (let attempt = 0; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      return await page.clock.pauseAt(now + 200);
    } catch (error) {
      if (attempt >= 4 || !String(error).includes("to the past")) throw error;
    }
  }
}

/** With page.clock installed before navigation: pauses the clock and moves it so performance.now() is `ms`. */
export async function clockAt(page: Page, ms: number) {
  await pauseClockAhead(page);
  const elapsed = await page.evaluate(() => performance.now());
  if (elapsed > ms) throw new Error(`the page is already at ${elapsed} ms, past ${ms} ms`);
  if (ms > elapsed) await page.clock.runFor(ms - elapsed);
  expect(Math.round(await page.evaluate(() => performance.now()))).toBe(ms);
}

/** Collects uncaught errors and console errors, to assert a scenario left the page working. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** Every request that leaves our own origin. */
export function trackThirdParty(page: Page, ownOrigin: string): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(ownOrigin) && !url.startsWith("data:")) urls.push(url);
  });
  return urls;
}

/** Every page of the site, and an unknown path for the 404 page. */
export const PAGES = [
  { name: "home", path: "/" },
  ...documentFiles(projectRoot).map(({ slug }) => ({ name: slug, path: `/${slug}` })),
  { name: "404", path: "/no-such-page" },
] as const;

export const WIDTHS = [1280, 320] as const;

/** The axe rule sets of WCAG 2.2 AA plus best practices; target-size (2.5.8) is switched on explicitly. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Every rule runs on every element; only the violations are gathered whole. axe keeps one element of each
 * passed, incomplete or inapplicable rule (the rule's id stays in its list), where it would build a
 * selector and a snippet of every element: 10–20 % of a run on the site's pages (1.1–1.4 s against
 * 1.3–1.6 s for a legal page and the landing page at 1280 px, alone, quiet).
 */
export const AXE_RESULT_TYPES: Array<"violations"> = ["violations"];

const T0 = new Date("2025-01-15T12:00:00Z").getTime();

/**
 * Installs the page clock paused, before the page exists: from then on no timer of the page moves unless
 * the test runs the clock, however busy the machine. The clock runs from install() until pauseAt(), so
 * the pause target must lie beyond any delay between the two calls (a 1 s margin was overtaken under
 * load: "Cannot fast-forward to the past"). The margin moves only Date; performance.now() counts the
 * real time between the calls, a few milliseconds.
 */
export async function pausedClock(page: Page) {
  await page.clock.install({ time: T0 });
  await page.clock.pauseAt(T0 + 10 * 60_000);
}

/**
 * For a test about something else on "/" that runs in real time: whenever the Under Development popup has
 * come up (at 4 s, which a busy machine reaches mid-test), it is closed with its Close button before the
 * next action or auto-waiting assertion, as a visitor would close it. While it shows, it is a modal that
 * hides the page from the accessibility tree and takes the pointer and Tab, so a test that met it would
 * fail for a reason that is not its own. Its own behaviour is tested with the clock paused
 * (tests/e2e/popup.spec.ts, tests/a11y/overlays.spec.ts). No handler runs between a hover or a key press
 * and what follows, so a test whose hover or focus must last (a tooltip's 700 ms) pauses the clock instead.
 */
export async function closePopupWhenShown(page: Page) {
  const popup = page.locator('[data-popup-phase="visible"]');
  const close = popup.getByRole("button");
  // Clicked until the popup is gone. On a loaded machine it may leave on its own (by 12.5 s) while the click
  // is on its way: a click that waited for its button to come back would wait until the test's end.
  await page.addLocatorHandler(popup, async () => {
    while (await popup.isVisible()) await close.click({ timeout: 1_000 }).catch(() => undefined);
  });
}

export interface OpenOptions {
  /** "shown": a first visit (no stored choice); "hidden": a returning visitor who accepted. */
  banner?: "shown" | "hidden";
  /** What the contact form provider answers (nothing ever leaves the machine). */
  form?: "fixture" | "abort" | "hang";
  /** On "/": let the Under Development popup run its whole course first (it is gone by 12.5 s). */
  skipPopup?: boolean;
}

/**
 * Opens a page as a visitor meets it, with time paused, then runs 1.5 s (the islands wait for intent or
 * nearness). Nothing timed happens on its own afterwards (the popup needs `page.clock.runFor` to reach
 * 4 s), unless `skipPopup`, which runs the clock past the popup's removal so that later real time cannot
 * bring it up. Returns once the page has rendered twice (afterFrames). Fails on an uncaught page error
 * or a visible "Unexpected Application Error!" (and the test fixture checks both again at the end).
 */
export async function openPage(page: Page, path: string, { banner = "shown", form = "abort", skipPopup = false }: OpenOptions = {}) {
  await routeFormProvider(page, form);
  if (banner === "hidden") {
    await page.addInitScript(
      ([key]) => {
        if (window === window.top) window.localStorage.setItem(key!, "accepted");
      },
      [CONSENT_STORAGE_KEY],
    );
  }
  await pausedClock(page);
  await page.goto(path);
  await page.clock.runFor(1500);
  const region = page.getByRole("region", { name: "Cookie consent" });
  if (banner === "shown") await expect(region).toBeVisible();
  else await expect(region).toHaveCount(0);
  if (skipPopup) {
    await page.clock.runFor(12_000);
    await expect(page.locator("[data-popup-phase]")).toHaveCount(0);
  }
  // Its first rendering updates, with their ResizeObserver reports (the consent script sets <body>'s
  // padding from the banner's height on the first): on a loaded machine they can come after the above.
  await afterFrames(page);
  await expectHealthy(page);
}

export interface AxeOptions {
  /**
   * On a page without frames, run axe.run() in the page itself (axeInPage): the same rules over the same
   * document, with the same results, without the blank second page and the second copy of axe that
   * AxeBuilder's runPartial and finishRun need (they exist to combine results from cross-origin frames).
   * A page with frames is analysed AxeBuilder's default way.
   */
  inPage?: boolean;
}

/** Runs axe over the page and returns the violations as readable lines (empty when there are none). */
export async function axeViolations(page: Page, { inPage = false }: AxeOptions = {}): Promise<string[]> {
  // axe schedules its work with timers, so the page's clock must run while it analyses.
  await page.clock.resume();
  const results =
    inPage && page.frames().length === 1
      ? await axeInPage(page)
      : await new AxeBuilder({ page }).options(AXE_OPTIONS).withTags(AXE_TAGS).analyze();
  return violationLines(results);
}

/** axe's violations as readable lines, one an element; first, that target-size ran (it is off by default). */
export function violationLines(results: AxeResults): string[] {
  const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((r) => r.id);
  expect(ran, "axe ran the target-size rule").toContain("target-size");
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${node.target.join(" ")} — ${node.failureSummary?.replace(/\s+/g, " ")}`,
    ),
  );
}

/** Every run's options besides its tags: target-size on (axe leaves it off), only the violations gathered whole. */
const AXE_OPTIONS = { rules: { "target-size": { enabled: true } }, resultTypes: AXE_RESULT_TYPES } satisfies RunOptions;

/**
 * axe-core's script, evaluated once a document. AxeBuilder's legacy mode evaluates it twice before a run
 * (once to see which API it has, once to inject it), and once more in every frame: 0.3–0.4 s each time.
 * Measured in Chromium, quiet: a run on the landing page at 1280 px 1.2–1.4 s through AxeBuilder,
 * 0.85–0.98 s so; a page with two sandboxed frames 1.2–1.6 s through AxeBuilder, 0.64 s without them.
 */
const AXE_SCRIPT = `if (!window.axe) {\n${axe.source}\n}`;

/**
 * axe.run() in the page's own document (frames are not entered: `iframes: false`), with the site's rule
 * sets and AXE_OPTIONS: what AxeBuilder's legacy mode runs, as axe-core documents it
 * (`axe.run(context, options)`), with its script evaluated once.
 */
export async function axeInPage(page: Page): Promise<AxeResults> {
  await page.evaluate(AXE_SCRIPT);
  const options: RunOptions = { ...AXE_OPTIONS, runOnly: { type: "tag", values: AXE_TAGS }, iframes: false };
  return page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), options);
}

/**
 * Collects every Content-Security-Policy violation the page reports ("directive blockedURI"), from
 * before its first script on. Call before page.goto; a test expects the list to stay empty.
 */
export async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  return violations;
}
