/**
 * `npm run screenshots`: the landing page at desktop (1440 px) and phone (375 px) width, written to
 * docs/screenshots/ for the README. `-- --all DIR` also shoots every page at both widths into DIR.
 * The form provider is routed to a local fixture: nothing leaves the machine.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { chromeArgs, findChrome } from "../lib/chrome.ts";
import { routeFormProvider } from "./form-provider.ts";
import { serveBuild } from "../scripts/lib/serve-build.ts";
import { documentFiles } from "../src/build/content-files.ts";
import { projectRoot } from "../lib/root.ts";

const root = projectRoot;
const allIndex = process.argv.indexOf("--all");
const allDir = allIndex > 0 ? process.argv[allIndex + 1] : undefined;

const server = await serveBuild();
const base = server.origin;
try {
  const browser = await chromium.launch({ executablePath: findChrome(), args: chromeArgs });
  const shoot = async (path: string, width: number, file: string) => {
    const context = await browser.newContext({
      viewport: { width, height: width < 600 ? 812 : 900 },
      deviceScaleFactor: width < 600 ? 2 : 1,
    });
    await routeFormProvider(context);
    // A returning visitor: the banner is decided, so the page itself is what the picture shows.
    await context.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
    const page = await context.newPage();
    await page.goto(`${base}${path}`, { waitUntil: "networkidle" });
    if (path === "/") {
      await page.evaluate(() => document.getElementById("contact")?.scrollIntoView({ behavior: "instant" }));
      await page.locator('[data-form-state="loaded"]').waitFor();
      await page.frameLocator('iframe[title="Contact Us"]').getByLabel("Work e-mail").waitFor();
    }
    // Back to the top: a full-page picture draws the sticky header where the page is scrolled to, and a
    // visitor sees it at the top, in its unscrolled style.
    await page.waitForFunction(() => {
      window.scrollTo({ top: 0, behavior: "instant" });
      return window.scrollY === 0;
    });
    await page.locator('header[data-scrolled="false"]').waitFor();
    // The whole page as one tall viewport, then a plain capture: Chromium's full-page capture lays the
    // page out again at its whole height, which restarts the hero drawing's fade, and it came out blank.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(2500);
    await page.screenshot({ path: file });
    await context.close();
    console.log(`wrote ${file}`);
  };
  mkdirSync(join(root, "docs/screenshots"), { recursive: true });
  await shoot("/", 1440, join(root, "docs/screenshots/landing-desktop.png"));
  await shoot("/", 375, join(root, "docs/screenshots/landing-phone.png"));
  if (allDir) {
    mkdirSync(allDir, { recursive: true });
    for (const path of ["/", ...documentFiles(projectRoot).map(({ slug }) => `/${slug}`), "/does-not-exist"]) {
      for (const width of [375, 1440]) {
        await shoot(path, width, join(allDir, `${path.slice(1) || "home"}-${width}.png`));
      }
    }
  }
  await browser.close();
} finally {
  await server.stop();
}
