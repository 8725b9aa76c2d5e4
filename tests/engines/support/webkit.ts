/**
 * Debian's WebKitGTK: WebKitWebDriver starts MiniBrowser, and webdriverio speaks WebDriver classic to
 * it (this driver has no BiDi). MiniBrowser has no headless mode, so the suite starts its own Xvfb.
 * The site is reached through the test front (./webkit-front.ts), which records page errors and
 * answers the form provider locally.
 */
import type { ChildProcess } from "node:child_process";
import { remote } from "webdriverio";
import { findMiniBrowser, findWebKitWebDriver, findXvfb } from "../../../scripts/lib/system-deps.ts";
import { ERROR_SCREEN_TEXT, type Engine, type Found, type Role } from "./engine.ts";
import { startSiteServer } from "./local.ts";
import { PROXY_PROBE_HOST, startFront, type Front } from "./webkit-front.ts";
import { signal, startDriver, startXvfb, stopProcess } from "./webkit-processes.ts";

type Browser = WebdriverIO.Browser;
type Element = WebdriverIO.Element;

/** Elements that can carry each role; the browser's computed role and label then decide. */
const CANDIDATES: Record<Role, string> = {
  button: "button, [role=button], input[type=button], input[type=submit]",
  dialog: "dialog, [role=dialog], [role=alertdialog]",
  heading: "h1, h2, h3, h4, h5, h6, [role=heading]",
  link: "a[href], [role=link]",
  progressbar: "progress, [role=progressbar]",
  region: "section, [role=region]",
};

async function findByRole(browser: Browser, scope: Browser | Element, role: Role, name: string | null): Promise<Found | null> {
  for (const element of await scope.$$(CANDIDATES[role]).getElements()) {
    try {
      // Only elements in the accessibility tree, as in Firefox. Asked for the role of a node that is
      // not rendered or has left the document, WebKit answers "unknown error", at times only after 60 s.
      if (!(await browser.execute((el: HTMLElement) => el.checkVisibility(), element as unknown as HTMLElement))) continue;
      if ((await element.getComputedRole()) !== role) continue;
      if (name !== null && (await element.getComputedLabel()).trim() !== name) continue;
      return wrap(browser, element);
    } catch {
      // Removed while we looked (an island replacing its server-rendered HTML on hydration): not a match.
    }
  }
  return null;
}

function wrap(browser: Browser, element: Element): Found {
  return {
    click: () => element.click(),
    async hold() {
      // One input source by name for the press and its release; perform(true) keeps the button down.
      const mouse = () => browser.action("pointer", { id: "held-mouse", parameters: { pointerType: "mouse" } });
      await mouse().move({ origin: element }).down({ button: 0 }).perform(true);
      return () => mouse().up({ button: 0 }).perform();
    },
    visible: () => element.isDisplayed(),
    attribute: (name) => element.getAttribute(name),
    byRole: (role, name) => findByRole(browser, element, role, name),
  };
}

/** Without a display the new-session call never returns, so every wait here has an end. */
const SESSION_TIMEOUT_MS = 30_000;

export function webkitEngine(): Engine {
  let server: Awaited<ReturnType<typeof startSiteServer>> | undefined;
  let front: Front | undefined;
  let xvfb: ChildProcess | undefined;
  let driver: ChildProcess | undefined;
  let driverPort = 0;
  let browser: Browser | undefined;
  const errors: string[] = [];
  // An exit without afterAll (a crashed worker) must not leave a display or a driver behind.
  const killOnExit = () => {
    if (driver) signal(driver, "SIGKILL", true);
    if (xvfb) signal(xvfb, "SIGKILL", false);
  };

  const session = () => {
    if (!browser) throw new Error("no WebKit session");
    return browser;
  };

  /** Collects what the recorder saw in the current document, before it goes away. */
  const harvest = async () => {
    if (!browser) return;
    const seen = await browser
      .execute((screenText: string) => {
        const recorded = (window as unknown as { __engineErrors?: string[] }).__engineErrors;
        return {
          url: location.href,
          html: document.contentType === "text/html",
          recorder: Array.isArray(recorded),
          errors: recorded ? recorded.splice(0) : [],
          screen: document.body?.innerText.includes(screenText) ?? false,
        };
      }, ERROR_SCREEN_TEXT)
      .catch(() => null);
    if (!seen || seen.url === "about:blank") return;
    if (seen.html && !seen.recorder) errors.push(`no error recorder in ${seen.url}: errors there would go unseen`);
    errors.push(...seen.errors);
    if (seen.screen) errors.push(`"${ERROR_SCREEN_TEXT}" shown at ${seen.url}`);
  };

  return {
    name: "webkit",
    get origin() {
      return front?.origin ?? "";
    },
    get refused() {
      return front?.refused ?? [];
    },
    get provider() {
      return front?.provider ?? [];
    },
    async start() {
      process.once("exit", killOnExit);
      const driverBinary = findWebKitWebDriver();
      const miniBrowser = findMiniBrowser();
      const xvfbBinary = findXvfb();
      if (!driverBinary || !miniBrowser || !xvfbBinary) throw new Error("WebKitWebDriver, MiniBrowser or Xvfb not found");
      server = await startSiteServer();
      front = await startFront({ upstreamPort: server.port });
      const x = await startXvfb(xvfbBinary);
      xvfb = x.process;
      const proxyUrl = front.proxyUrl;

      driverPort = await startDriver(
        driverBinary,
        {
          ...process.env,
          DISPLAY: x.display,
          // MiniBrowser reads its proxy from the environment (GIO's libproxy); the WebDriver `proxy`
          // capability only knows an HTTPS proxy for https URLs, which WebKit reaches over TLS.
          http_proxy: proxyUrl,
          https_proxy: proxyUrl,
          // Loopback stays direct: the site itself, and the driver's own link to MiniBrowser.
          no_proxy: "127.0.0.1,localhost,::1",
        },
        (child) => (driver = child),
      );

      browser = await remote({
        hostname: "127.0.0.1",
        port: driverPort,
        logLevel: "silent",
        connectionRetryTimeout: SESSION_TIMEOUT_MS,
        connectionRetryCount: 0,
        capabilities: {
          browserName: "MiniBrowser",
          acceptInsecureCerts: true,
          "wdio:enforceWebDriverClassic": true,
          "webkitgtk:browserOptions": { binary: miniBrowser, args: ["--automation", "--full-screen"] },
        } as WebdriverIO.Capabilities,
      });
      await browser.setWindowSize(1280, 800).catch(() => undefined);
      // The proxy comes from the environment, which GIO may ignore (a desktop's own proxy settings):
      // prove that an https request reaches the front before trusting that none leaves the machine.
      await browser.url(`https://${PROXY_PROBE_HOST}/`).catch(() => undefined);
      if (front.probes.length === 0) throw new Error("MiniBrowser did not use the test proxy: its https requests would leave the machine");
    },
    async stop() {
      // deleteSession first: it closes MiniBrowser, which killing the driver would leave running.
      await browser?.deleteSession().catch(() => undefined);
      await stopProcess(driver, true);
      await stopProcess(xvfb);
      await front?.close();
      await server?.close();
      process.off("exit", killOnExit);
    },
    async fresh() {
      front!.blockBundles = false;
      await session().url(`${front!.origin}/robots.txt`);
      await session().execute(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
    },
    async goto(path, { holdTimers = false } = {}) {
      await harvest();
      front!.holdTimers = holdTimers;
      try {
        await session().url(`${front!.origin}${path}`);
      } finally {
        front!.holdTimers = false;
      }
    },
    async reload() {
      await harvest();
      await session().refresh();
    },
    evaluate: (fn, ...args) => session().execute(fn as never, ...(args as unknown[])) as never,
    async evaluateInFrame(selector, fn) {
      const frame = session().$(selector);
      await frame.waitForExist({ timeout: 10_000 });
      await session().switchFrame(frame);
      try {
        return (await session().execute(fn as never)) as never;
      } finally {
        await session().switchToParentFrame();
      }
    },
    byRole: (role, name) => findByRole(session(), session(), role, name),
    // With a modifier first, it is held while the key is pressed, and released after.
    press: (key) => session().keys(key === "Shift+Tab" ? ["Shift", "Tab"] : [key]),
    blockBundles(blocked) {
      front!.blockBundles = blocked;
    },
    async takeErrors() {
      await harvest();
      return errors.splice(0);
    },
  };
}
