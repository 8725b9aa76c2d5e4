/**
 * The site's core scenario, written once against the spec (roles, names, attributes, stored values)
 * and run in each engine: every route and the 404 page, the cookie banner, the header's scrolled
 * state, the Under Development popup in real time (./popup.ts), the contact form with consent, and no
 * uncaught page error anywhere.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { parse } from "yaml";
import type { SystemDepName } from "../../../scripts/lib/system-deps.ts";
import { CONSENT_STORAGE_KEY, HEADER_SCROLL_THRESHOLD_PX } from "../../../src/shared/constants.ts";
import { until, type Engine } from "./engine.ts";
import { engineSuite } from "./suite.ts";
import { popupTests } from "./popup.ts";
import { FORM_FRAME_URL, FORM_SCRIPT_URL, siteCsp } from "./local.ts";

const heroHeadline = (
  parse(readFileSync(new URL("../../../src/content/landing/hero.yaml", import.meta.url), "utf8")) as { headline: string }
).headline;

/** Every route of the spec (section 2) and the heading it shows. */
const ROUTES = [
  { path: "/", h1: heroHeadline },
  { path: "/terms-of-service", h1: "Terms of Service" },
  { path: "/privacy-policy", h1: "Privacy Policy" },
  { path: "/risk-disclosures", h1: "Risk Disclosures" },
  { path: "/cookie-policy", h1: "Cookie Policy" },
];

/** A page without the popup, for the tests that click: the popup's overlay would cover the banner at 4 s. */
const LEGAL_PAGE = "/privacy-policy";

const normalize = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

export function coreScenario(engine: Engine, needs: SystemDepName) {
  /** Resolves once the page has rendered two more frames: its scroll events, observers and effects so far have run. */
  const afterFrames = () =>
    engine.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

  engineSuite(engine, needs, `${engine.name}: the core scenario`, () => {
    const banner = async () => {
      const region = await engine.byRole("region", "Cookie consent");
      return region && (await region.visible()) ? region : null;
    };
    const stored = () => engine.evaluate((key: string) => localStorage.getItem(key), CONSENT_STORAGE_KEY);

    /**
     * Presses a banner button once: the banner's controls work from the moment they are painted (the
     * inline head script), so one press must take effect, and quickly.
     */
    async function pressInBanner(name: string) {
      const region = await banner();
      if (!region) throw new Error("the banner is not shown");
      const button = await region.byRole("button", name);
      if (!button) throw new Error(`the banner has no button "${name}"`);
      await button.click();
      await until(`the banner to hide after one press on "${name}"`, async () => (await banner()) === null, 2_000);
    }

    test.each(ROUTES)("$path answers 200 and shows its h1", async ({ path, h1 }) => {
      expect((await fetch(`${engine.origin}${path}`)).status).toBe(200);
      await engine.goto(path);
      const heading = await engine.byRole("heading", h1);
      expect(heading, `a heading "${h1}"`).not.toBeNull();
      expect(await heading!.visible()).toBe(true);
      expect(await engine.evaluate(() => [...document.querySelectorAll("h1")].map((h) => h.textContent))).toHaveLength(1);
      expect(normalize(await engine.evaluate(() => document.querySelector("h1")!.textContent))).toBe(h1);
    });

    test("an unknown path answers 404 and shows the 404 page", async () => {
      expect((await fetch(`${engine.origin}/no-such-page`)).status).toBe(404);
      await engine.goto("/no-such-page");
      expect(normalize(await engine.evaluate(() => document.querySelector("h1")?.textContent))).toBe("404");
      expect(await engine.evaluate(() => document.body.innerText)).toContain("Oops! Page not found");
      const home = await engine.byRole("link", "Return to Home");
      expect(home, 'a link "Return to Home"').not.toBeNull();
      expect(await home!.visible()).toBe(true);
      expect(new URL((await home!.attribute("href")) ?? "", `${engine.origin}/no-such-page`).href).toBe(`${engine.origin}/`);
    });

    test("an uncaught error and an unhandled rejection in the page are caught by this suite", async () => {
      await engine.goto(LEGAL_PAGE);
      await engine.evaluate(() => {
        setTimeout(() => {
          throw new Error("engine-probe: thrown");
        });
        void Promise.reject(new Error("engine-probe: rejected"));
      });
      const seen: string[] = [];
      await until(
        "both probes to be reported",
        async () => {
          seen.push(...(await engine.takeErrors()));
          return seen.some((e) => e.includes("engine-probe: thrown")) && seen.some((e) => e.includes("engine-probe: rejected"));
        },
        5_000,
      );
      expect(seen.filter((e) => !e.includes("engine-probe"))).toEqual([]);
    });

    for (const [control, value] of [
      ["Accept All", "accepted"],
      ["Reject All", "rejected"],
    ] as const) {
      test(`the banner: ${control} stores ${value} and hides it`, async () => {
        await engine.goto(LEGAL_PAGE);
        expect(await banner(), "the banner on a first visit").not.toBeNull();
        await pressInBanner(control);
        expect(await stored()).toBe(value);
        await engine.reload();
        expect(await banner()).toBeNull();
      });
    }

    test("the banner: Close hides it and stores nothing, so it is back after a reload", async () => {
      await engine.goto(LEGAL_PAGE);
      expect(await banner(), "the banner on a first visit").not.toBeNull();
      await pressInBanner("Close");
      expect(await stored()).toBeNull();
      await engine.reload();
      expect(await banner(), "the banner after a reload").not.toBeNull();
    });

    test("the banner: with a stored choice it is absent on load", async () => {
      for (const choice of ["accepted", "rejected"]) {
        await engine.fresh();
        await engine.goto(LEGAL_PAGE);
        expect(await banner(), "the banner before a choice is stored").not.toBeNull();
        await engine.evaluate((key: string, value: string) => localStorage.setItem(key, value), CONSENT_STORAGE_KEY, choice);
        await engine.reload();
        expect(await banner(), `the banner with "${choice}" stored`).toBeNull();
        await engine.goto("/");
        expect(await banner(), `the banner with "${choice}" stored, on /`).toBeNull();
      }
    });

    test("the header: data-scrolled is false at 50 px, true at 51 px, false again at 0", async () => {
      await engine.goto("/");
      const state = () => engine.evaluate(() => document.querySelector("header[data-scrolled]")?.getAttribute("data-scrolled") ?? null);
      /** Scrolls for real and resolves once the scroll event has fired and two frames have been drawn. */
      const scrollPage = async (top: number) => {
        const at = await engine.evaluate(
          (y: number) =>
            new Promise<number>((resolve) => {
              addEventListener("scroll", () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(scrollY))), { once: true });
              window.scrollTo({ top: y, behavior: "instant" });
            }),
          top,
        );
        expect(at, "the page scrolled where it was asked to").toBe(top);
      };
      const becomes = (value: string, at: number) => until(`data-scrolled="${value}" at ${at} px`, async () => (await state()) === value);

      expect(await state()).toBe("false");
      // Every step below is a change the header must make, so none of them can pass on a header that never updates.
      await scrollPage(HEADER_SCROLL_THRESHOLD_PX + 1);
      await becomes("true", HEADER_SCROLL_THRESHOLD_PX + 1);
      await scrollPage(HEADER_SCROLL_THRESHOLD_PX);
      await becomes("false", HEADER_SCROLL_THRESHOLD_PX);
      await scrollPage(HEADER_SCROLL_THRESHOLD_PX + 1);
      await becomes("true", HEADER_SCROLL_THRESHOLD_PX + 1);
      await scrollPage(0);
      await becomes("false", 0);
      // Straight from 0 to exactly 50: once the page has rendered past the scroll (its scroll event has
      // run), it stays "false".
      await scrollPage(HEADER_SCROLL_THRESHOLD_PX);
      await afterFrames();
      expect(await state()).toBe("false");
    });

    popupTests(engine, afterFrames);

    test("the contact form with consent: going to #contact loads one provider script and the Contact Us frame, under the real CSP", async () => {
      // The policy the browser gets is the build's own, unchanged on the way.
      const csp = (await fetch(`${engine.origin}/`)).headers.get("content-security-policy");
      expect(csp).toBe(siteCsp());
      expect(csp).not.toContain("unsafe-inline");
      await engine.goto(LEGAL_PAGE);
      await engine.evaluate((key: string) => localStorage.setItem(key, "accepted"), CONSENT_STORAGE_KEY);
      await engine.goto("/#contact");

      const inFrame = await until(
        "the provider's form in the Contact Us frame",
        async () => {
          const seen = await engine.evaluateInFrame('iframe[title="Contact Us"]', () => ({
            url: location.href,
            workEmail: [...document.querySelectorAll("label")].some(
              (label) => label.textContent?.trim() === "Work e-mail" && label.control !== null,
            ),
          }));
          return seen.workEmail ? seen : false;
        },
        15_000,
      );
      expect(inFrame.url).toBe(FORM_FRAME_URL);
      // The fixture script counts its runs; the site's CSP had to allow it for it to run at all.
      await until(
        "the provider's script to run",
        async () => (await engine.evaluate(() => (window as unknown as { __formEmbedLoaded?: number }).__formEmbedLoaded)) === 1,
      );
      // Two more rendered frames: the island's observer and effects have run, and would have added a second copy.
      await afterFrames();
      expect(
        await engine.evaluate(() => ({
          scripts: [...document.querySelectorAll<HTMLScriptElement>("script[data-form-embed]")].map((script) => script.src),
          runs: (window as unknown as { __formEmbedLoaded?: number }).__formEmbedLoaded,
          frames: document.querySelectorAll('iframe[title="Contact Us"]').length,
        })),
      ).toEqual({ scripts: [FORM_SCRIPT_URL], runs: 1, frames: 1 });
      expect(engine.provider).toContain(FORM_SCRIPT_URL);
      expect(engine.provider).toContain(FORM_FRAME_URL);
    });
  });
}
