import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { getChromePath } from "chrome-launcher";

/**
 * CHROME_PATH, then wherever chrome-launcher finds a Chrome or Chromium on this system (Debian's
 * `chromium` included); undefined lets Playwright use its own browser if it has one.
 */
export function findChrome(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  try {
    return getChromePath();
  } catch {
    return undefined;
  }
}

/** Debian's `chromium-headless-shell`: Chromium's headless build, from the same source package and release as `chromium`. */
const HEADLESS_SHELL = "chromium-headless-shell";

/**
 * The Chromium the test suites drive: CHROME_PATH, then Debian's headless shell, then findChrome(). The
 * shell is the same engine (Blink, V8, Skia and the compositor of the same release) without the
 * browser's own layer (profiles, extensions, its UI), and what Playwright itself runs for headless
 * tests. Here it did the same work in half the time: 81 landing, consent and axe tests took 66 s
 * against 128 s with the full browser in its headless mode (docs/decisions/0031). The benchmarks, the
 * screenshots for people and the records' captures keep the full browser (findChrome): they measure,
 * show or keep what a visitor's browser does.
 */
export function findTestChrome(): string | undefined {
  if (process.env.CHROME_PATH) return findChrome();
  return headlessShell() ?? findChrome();
}

/** Debian's headless shell on the PATH, if installed. */
export const headlessShell = () =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .map((folder) => join(folder, HEADLESS_SHELL))
    .find((path) => existsSync(path));

/** Flags for a closed network and a root user (see README, "Tests"). */
export const chromeArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
