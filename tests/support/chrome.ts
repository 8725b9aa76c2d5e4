import { existsSync } from "node:fs";

/** Where a Chrome or Chromium usually lives, after CHROME_PATH. */
const candidates = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** CHROME_PATH, then the usual system paths; undefined lets Playwright use its own browser if it has one. */
export function findChrome(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  return candidates.find((path) => existsSync(path));
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
