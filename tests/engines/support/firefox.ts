/**
 * Debian's Firefox ESR driven by puppeteer-core over WebDriver BiDi (no geckodriver). The form
 * provider's hosts are answered by request interception from the local fixtures; any other request
 * that would leave the machine is aborted and recorded.
 */
import puppeteer, { type Browser, type BrowserContext, type ElementHandle, type Page } from "puppeteer-core";
import { systemDeps } from "../../../scripts/lib/system-deps.ts";
import { ERROR_SCREEN_TEXT, errorScreenShown, type Engine, type Found, type Role } from "./engine.ts";
import { FORM_ORIGINS, formProviderAnswer, startSiteServer } from "./local.ts";
import { HELD_TIMERS_SCRIPT } from "./held-timers.ts";

// The attribute form: a quoted name before the brackets ("…"[role=…]) silently matches nothing.
const ariaSelector = (role: Role, name: string | null) =>
  name === null ? `::-p-aria([role="${role}"])` : `::-p-aria([name=${JSON.stringify(name)}][role="${role}"])`;

function wrap(handle: ElementHandle<Element>): Found {
  return {
    click: () => handle.click(),
    async hold() {
      const mouse = handle.frame.page().mouse;
      await handle.hover();
      await mouse.down();
      return () => mouse.up();
    },
    visible: () => handle.isVisible(),
    attribute: (name) => handle.evaluate((el, n) => el.getAttribute(n), name),
    byRole: async (role, name) => {
      const found = await handle.$(ariaSelector(role, name));
      return found ? wrap(found) : null;
    },
  };
}

export function firefoxEngine(): Engine {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let server: Awaited<ReturnType<typeof startSiteServer>> | undefined;
  const errors: string[] = [];
  const refused: string[] = [];
  const provider: string[] = [];
  let origin = "";
  let bundlesBlocked = false;

  const current = () => {
    if (!page) throw new Error("no page: call fresh() first");
    return page;
  };
  const harvestScreen = async () => {
    if (page && (await page.evaluate(errorScreenShown, ERROR_SCREEN_TEXT).catch(() => false)))
      errors.push(`"${ERROR_SCREEN_TEXT}" shown at ${page.url()}`);
  };

  return {
    name: "firefox",
    get origin() {
      return origin;
    },
    refused,
    provider,
    async start() {
      server = await startSiteServer();
      origin = server.origin;
      const executablePath = systemDeps.firefox.find();
      if (!executablePath) throw new Error("Firefox not found");
      browser = await puppeteer.launch({
        browser: "firefox",
        executablePath,
        headless: true,
        defaultViewport: { width: 1280, height: 800 },
      });
    },
    async stop() {
      await browser?.close().catch(() => undefined);
      await server?.close();
    },
    async fresh() {
      bundlesBlocked = false;
      await context?.close();
      // A new user context: its own storage, nothing carried over from the previous test.
      context = await browser!.createBrowserContext();
      page = await context.newPage();
      page.on("pageerror", (error) => errors.push(`pageerror: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        const url = request.url();
        if (bundlesBlocked && url.startsWith(`${origin}/_astro/`)) return void request.abort("blockedbyclient");
        if (url.startsWith(`${origin}/`) || url.startsWith("data:")) return void request.continue();
        if (FORM_ORIGINS.has(new URL(url).origin)) {
          provider.push(url);
          const { contentType, body } = formProviderAnswer(url);
          return void request.respond({ status: 200, contentType, body });
        }
        refused.push(url);
        return void request.abort("blockedbyclient");
      });
    },
    async goto(path, { holdTimers = false } = {}) {
      await harvestScreen();
      const held = holdTimers ? await current().evaluateOnNewDocument(HELD_TIMERS_SCRIPT) : undefined;
      try {
        await current().goto(`${origin}${path}`, { waitUntil: "load" });
      } finally {
        if (held) await current().removeScriptToEvaluateOnNewDocument(held.identifier);
      }
    },
    async reload() {
      await harvestScreen();
      await current().reload({ waitUntil: "load" });
    },
    evaluate: (fn, ...args) => current().evaluate(fn as never, ...(args as unknown[])) as never,
    async evaluateInFrame(selector, fn) {
      const element = await current().waitForSelector(selector);
      const frame = await element!.contentFrame();
      if (!frame) throw new Error(`${selector} has no document`);
      return frame.evaluate(fn) as never;
    },
    async byRole(role, name) {
      const found = await current().$(ariaSelector(role, name));
      return found ? wrap(found) : null;
    },
    async press(key) {
      const keyboard = current().keyboard;
      if (key !== "Shift+Tab") return keyboard.press(key);
      await keyboard.down("Shift");
      await keyboard.press("Tab");
      await keyboard.up("Shift");
    },
    blockBundles(blocked) {
      bundlesBlocked = blocked;
    },
    async takeErrors() {
      await harvestScreen();
      return errors.splice(0);
    },
  };
}
