/**
 * What the core scenario needs from a browser, so the same tests run in Firefox (puppeteer-core over
 * WebDriver BiDi) and in WebKit (webdriverio over WebDriver classic). Roles and accessible names are
 * those the browser itself computes (Firefox's accessibility tree, WebKit's Get Computed Role/Label).
 */
export type Role = "button" | "dialog" | "heading" | "link" | "progressbar" | "region";
export type Key = "Tab" | "Shift+Tab" | "Escape" | "Enter";

/** An element found by role and name. */
export interface Found {
  click(): Promise<void>;
  /** Presses the main mouse button down on its centre and keeps it down; the function returned releases it. */
  hold(): Promise<() => Promise<void>>;
  visible(): Promise<boolean>;
  attribute(name: string): Promise<string | null>;
  /** The first descendant with this role and accessible name (any name when null). */
  byRole(role: Role, name: string | null): Promise<Found | null>;
}

export interface Engine {
  readonly name: "firefox" | "webkit";
  /** The site as this browser reaches it. */
  readonly origin: string;
  /** Browser, servers and anything else the file needs; once per test file. */
  start(): Promise<void>;
  /** Stops everything `start` started, even after a failed start. */
  stop(): Promise<void>;
  /** A visitor with nothing stored (a new browser context, or emptied storage). */
  fresh(): Promise<void>;
  /**
   * Navigates to a path of the site and waits for the load event. `holdTimers`: the page's timers that
   * come due wait until the test releases them (held-timers.ts), in this document only.
   */
  goto(path: string, options?: { holdTimers?: boolean }): Promise<void>;
  reload(): Promise<void>;
  /** Runs a function in the page; its arguments and result travel as JSON. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** Runs a function in the document of the first iframe matching `selector`. */
  evaluateInFrame<R>(selector: string, fn: () => R): Promise<Awaited<R>>;
  byRole(role: Role, name: string | null): Promise<Found | null>;
  /** Presses a key, as a keyboard user does, on whatever has focus. */
  press(key: Key): Promise<void>;
  /** From the next navigation on, the site's /_astro/ bundles fail to load (a proxy that blocks scripts). */
  blockBundles(blocked: boolean): void;
  /**
   * Uncaught errors and unhandled rejections of every document shown since the last call, and a
   * visible "Unexpected Application Error!" screen. Empties the list.
   */
  takeErrors(): Promise<string[]>;
  /** Requests that were refused because they would have left the machine. */
  readonly refused: string[];
  /** Requests answered from the form provider's local fixtures. */
  readonly provider: string[];
}

/**
 * Polls `probe` until it returns something other than undefined, null or false; fails with `what` after
 * `timeout` ms. For states that report no change a test could wait on: what WebDriver and the
 * accessibility tree say, a driver's socket. The 50 ms between probes is how often to ask, not a time
 * the test waits for: the state decides when it goes on.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeout = 10_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const ERROR_SCREEN_TEXT = "Unexpected Application Error!";

/** In the page: whether the error screen is showing (innerText holds rendered text only). */
export const errorScreenShown = (text: string) => document.body?.innerText.includes(text) ?? false;
