import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Window } from "happy-dom";
import { bundleHeadScript } from "@/build/head-script";

const headScript = (analytics: string) => bundleHeadScript(analytics).code;
import { mayAutoLoadEmbeds, parseConsent, sendsGlobalPrivacyControl } from "@/shared/consent";

const ANALYTICS = "https://analytics.example.org/script.js";

/**
 * A fresh window with the site's markup for the banner, Cookie settings and header, and the boot script
 * run from its serialized text exactly as the page gets it: it must work with nothing from outside it.
 */
function page(options: { stored?: string | null; storage?: "throws"; gpc?: boolean; analytics?: string } = {}) {
  const win = new Window({ url: "https://www.example.com/" });
  const doc = win.document;
  if (options.storage === "throws") {
    Object.defineProperty(win, "localStorage", {
      get() {
        throw new win.DOMException("denied", "SecurityError");
      },
    });
  } else if (options.stored != null) win.localStorage.setItem("cookieConsent", options.stored);
  if (options.gpc) Object.defineProperty(win.navigator, "globalPrivacyControl", { get: () => true });
  const events: string[] = [];
  win.addEventListener("consentchange", (e) => events.push((e as unknown as CustomEvent<string>).detail));
  win.eval(headScript(options.analytics ?? ""));
  doc.body.innerHTML = `
    <header data-scrolled="false"></header>
    <section data-consent-banner tabindex="-1" aria-label="Cookie consent">
      <button data-consent-action="reject">Reject All</button>
      <button data-consent-action="accept"><span>Accept All</span></button>
      <button data-consent-action="close">Close</button>
    </section>
    <button data-consent-action="reopen">Cookie settings</button>`;
  const click = (action: string) => (doc.querySelector(`[data-consent-action="${action}"]`) as unknown as HTMLElement).click();
  const state = () => doc.documentElement.getAttribute("data-consent");
  const stored = () => win.localStorage.getItem("cookieConsent");
  const analyticsScripts = () => doc.querySelectorAll(`script[data-analytics][src="${ANALYTICS}"]`).length;
  return { win, doc, click, state, stored, events, analyticsScripts };
}

let opened: Array<{ win: Window }> = [];
const open = (...args: Parameters<typeof page>) => {
  const p = page(...args);
  opened.push(p);
  return p;
};
beforeEach(() => {
  opened = [];
});
afterEach(async () => {
  for (const p of opened) await p.win.happyDOM.close();
});

describe("consent values", () => {
  it.each([
    ["accepted", "accepted"],
    ["rejected", "rejected"],
    // anything else is no choice
    ["Accepted", null],
    ["true", null],
    ["", null],
    [null, null],
    [undefined, null],
    ['{"accepted":true}', null],
  ])("parses %j as %j", (raw, expected) => {
    expect(parseConsent(raw)).toBe(expected);
  });

  it.each([
    // [consent, gpc, embeds load without a click]
    ["accepted", false, true],
    ["accepted", true, false],
    ["rejected", false, false],
    [null, false, false],
    [null, true, false],
  ] as const)("consent %s with GPC %s: the contact form loads without a click: %s", (consent, gpc, embeds) => {
    expect(mayAutoLoadEmbeds(consent, gpc)).toBe(embeds);
  });

  it("reads Global Privacy Control only when it is exactly true", () => {
    expect(sendsGlobalPrivacyControl({ globalPrivacyControl: true })).toBe(true);
    expect(sendsGlobalPrivacyControl({ globalPrivacyControl: "1" })).toBe(false);
    expect(sendsGlobalPrivacyControl({})).toBe(false);
    expect(sendsGlobalPrivacyControl(undefined)).toBe(false);
  });
});

describe("the inline head script: consent", () => {
  it.each([
    ["accepted", "accepted"],
    ["rejected", "rejected"],
    ["garbage", "unset"],
    [null, "unset"],
  ])("marks <html> for a stored %j as %j before anything else runs", (stored, expected) => {
    expect(open({ stored }).state()).toBe(expected);
  });

  it("marks <html> unset when storage throws, and the buttons still work for this page view", () => {
    const p = open({ storage: "throws" });
    expect(p.state()).toBe("unset");
    p.click("accept");
    expect(p.state()).toBe("accepted");
  });

  it.each([
    ["accept", "accepted"],
    ["reject", "rejected"],
  ])("%s stores %s, marks <html> and announces it", (action, value) => {
    const p = open();
    p.click(action);
    expect(p.stored()).toBe(value);
    expect(p.state()).toBe(value);
    expect(p.events).toEqual(["unset", value]);
  });

  it("a click on a child of the button counts", () => {
    const p = open();
    (p.doc.querySelector('[data-consent-action="accept"] span') as unknown as HTMLElement).click();
    expect(p.stored()).toBe("accepted");
  });

  it("Close hides the banner for this page view only and stores nothing", () => {
    const p = open();
    p.click("close");
    expect(p.state()).toBe("dismissed");
    expect(p.stored()).toBeNull();
  });

  it("Cookie settings reopens the banner and moves focus to it; a new choice replaces the old", () => {
    const p = open({ stored: "accepted" });
    p.click("reopen");
    expect(p.state()).toBe("unset");
    expect(p.doc.activeElement?.getAttribute("aria-label")).toBe("Cookie consent");
    p.click("reject");
    expect(p.stored()).toBe("rejected");
  });

  it.each(["accept", "reject", "close"])("answered with %s after Cookie settings, focus goes back to Cookie settings", (action) => {
    const p = open({ stored: "accepted" });
    const reopen = p.doc.querySelector('[data-consent-action="reopen"]') as unknown as HTMLElement;
    reopen.focus();
    p.click("reopen");
    // The keyboard user moves to the banner's button and presses it.
    (p.doc.querySelector(`[data-consent-action="${action}"]`) as unknown as HTMLElement).focus();
    p.click(action);
    expect(p.doc.activeElement).toBe(reopen);
  });

  it("a choice made with focus elsewhere leaves focus where it is", () => {
    const p = open({ stored: "accepted" });
    p.click("reopen");
    const header = p.doc.querySelector("header") as unknown as HTMLElement;
    header.tabIndex = -1;
    header.focus();
    p.click("accept");
    expect(p.doc.activeElement).toBe(header);
  });

  it("loads the analytics script only after Accept All, once, and never under GPC", () => {
    const p = open({ analytics: ANALYTICS });
    p.win.dispatchEvent(new p.win.Event("load"));
    expect(p.analyticsScripts()).toBe(0);
    p.click("reject");
    expect(p.analyticsScripts()).toBe(0);
    p.click("accept");
    p.click("accept");
    expect(p.analyticsScripts()).toBe(1);

    const gpc = open({ analytics: ANALYTICS, gpc: true });
    gpc.click("accept");
    gpc.win.dispatchEvent(new gpc.win.Event("load"));
    expect(gpc.analyticsScripts()).toBe(0);
  });

  it("loads it for a returning visitor who accepted, after the page has loaded", () => {
    const p = open({ analytics: ANALYTICS, stored: "accepted" });
    expect(p.analyticsScripts()).toBe(0);
    p.win.dispatchEvent(new p.win.Event("load"));
    expect(p.analyticsScripts()).toBe(1);
  });

  it("loads no script at all when no analytics script is configured", () => {
    const p = open({ stored: "accepted" });
    p.win.dispatchEvent(new p.win.Event("load"));
    p.click("accept");
    expect(p.doc.querySelectorAll("script")).toHaveLength(0);
  });
});

describe("the inline head script: header", () => {
  it.each([
    [0, "false"],
    [50, "false"],
    [51, "true"],
    [50.5, "true"],
    [4000, "true"],
  ])("at scrollY %d the header's data-scrolled is %s", (y, expected) => {
    const p = open();
    Object.defineProperty(p.win, "scrollY", { configurable: true, get: () => y });
    p.win.dispatchEvent(new p.win.Event("scroll"));
    expect(p.doc.querySelector("header")?.getAttribute("data-scrolled")).toBe(expected);
  });

  it("follows a page restored from the back-forward cache (a persisted pageshow)", () => {
    const p = open();
    Object.defineProperty(p.win, "scrollY", { configurable: true, get: () => 900 });
    const restored = new p.win.Event("pageshow");
    Object.defineProperty(restored, "persisted", { value: true });
    p.win.dispatchEvent(restored);
    expect(p.doc.querySelector("header")?.getAttribute("data-scrolled")).toBe("true");
  });

  it("reads no scroll position before the page scrolls: reading it would lay the page out at once", () => {
    const p = open();
    let reads = 0;
    Object.defineProperty(p.win, "scrollY", { configurable: true, get: () => (reads++, 0) });
    p.doc.dispatchEvent(new p.win.Event("DOMContentLoaded"));
    p.win.dispatchEvent(new p.win.Event("load"));
    p.win.dispatchEvent(new p.win.Event("pageshow"));
    expect(reads).toBe(0);
    p.win.dispatchEvent(new p.win.Event("scroll"));
    expect(reads).toBe(1);
  });
});

describe("the inline head script as shipped", () => {
  it("is minified and small (it travels in every page's first round trip)", () => {
    const script = headScript("");
    expect(script).not.toMatch(/\n\s/);
    // The issue that made it a module set 1.3 KB; the serialized functions it replaced came to 1552 bytes.
    expect(script.length).toBeLessThanOrEqual(1300);
  });
});
