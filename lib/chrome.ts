import { existsSync } from "node:fs";
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
