/**
 * What a keyboard user, a visitor behind a proxy that blocks scripts and a visitor whose text is twice
 * as large meet, in each engine: focus and the popup (a modal dialog, in real time), the cookie banner's
 * place in the tab order and where focus goes once it is answered, a tooltip that focus opened while
 * the page scrolls, the tooltips' CSS fallback with the bundles blocked, and text zoom.
 */
import { expect, test } from "vitest";
import type { SystemDepName } from "../../../scripts/lib/system-deps.ts";
import { CONSENT_STORAGE_KEY, POPUP_REMOVE_AFTER_MS, POPUP_SHOW_AT_MS } from "../../../src/shared/constants.ts";
import { textProblemsInPage } from "../../support/text-size.ts";
import { until, type Engine } from "./engine.ts";
import { releaseHeldTimers } from "./held-timers.ts";
import { engineSuite } from "./suite.ts";

/** How late a real-time timer may fire on a busy machine (added to the spec's times, never taken off). */
const SLACK_MS = 3_000;

/** In the page: a readable key for the focused element. */
const focusedKey = () => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body";
  return `${el.tagName.toLowerCase()}|${el.getAttribute("aria-label") ?? (el.textContent ?? "").trim().slice(0, 30)}`;
};

export function visitorScenario(engine: Engine, needs: SystemDepName) {
  engineSuite(engine, needs, `${engine.name}: keyboard, blocked scripts and larger text`, () => {
    const focused = () => engine.evaluate(focusedKey);
    const returning = async (path: string, options?: { holdTimers?: boolean }) => {
      await engine.goto("/privacy-policy");
      await engine.evaluate((key: string) => localStorage.setItem(key, "accepted"), CONSENT_STORAGE_KEY);
      await engine.goto(path, options);
    };
    /**
     * Home, as a returning visitor, with focus on `selector` before the popup's 4 s timer starts. The
     * page's timers wait until focus is there (held-timers.ts): a page that arrives after 4 s on a busy
     * machine would otherwise show the popup first, and the test would move focus out of it.
     */
    const focusBeforePopup = async (selector: string) => {
      await returning("/", { holdTimers: true });
      await engine.evaluate((s: string) => document.querySelector<HTMLElement>(s)!.focus(), selector);
      const { delays } = await engine.evaluate(releaseHeldTimers);
      expect(
        delays.filter((delay) => delay > 0 && delay <= POPUP_SHOW_AT_MS),
        `the popup's 4 s timer started once focus was on ${selector} (held: ${delays.join(", ")} ms)`,
      ).not.toEqual([]);
    };
    const popupHasFocus = () =>
      until(
        "the popup to take focus",
        () => engine.evaluate(() => !!document.activeElement?.closest("[data-popup-phase]")),
        POPUP_SHOW_AT_MS + SLACK_MS,
      );

    test("the popup is a modal dialog: at 4 s it takes focus, Tab stays on its Close button, Escape gives focus back", async () => {
      await focusBeforePopup('main a[href="#features"]');
      const before = await focused();
      await popupHasFocus();
      expect(await focused()).toBe("button|Close");
      expect(await engine.evaluate(() => document.querySelector("main")!.closest("[aria-hidden=true]") !== null)).toBe(true);
      for (const key of ["Tab", "Shift+Tab"] as const) {
        await engine.press(key);
        expect(await focused(), `after ${key}`).toBe("button|Close");
      }
      await engine.press("Escape");
      await until("focus to come back", async () => (await focused()) === before);
      await until(
        "the popup to leave",
        () => engine.evaluate(() => !document.querySelector("[data-popup-phase]")),
        POPUP_REMOVE_AFTER_MS + SLACK_MS,
      );
      expect(await engine.evaluate(() => document.querySelectorAll("body > [aria-hidden]").length)).toBe(0);
    }, 30_000);

    test("the cookie banner's controls follow the skip link; answered, it gives focus back to where it came from", async () => {
      await engine.goto("/privacy-policy");
      const tabs: string[] = [];
      for (let i = 0; i < 5; i++) {
        await engine.press("Tab");
        tabs.push(await focused());
      }
      expect(tabs).toEqual(["a|Skip to content", "a|Cookie Policy", "button|Reject All", "button|Accept All", "button|Close"]);
      await engine.press("Shift+Tab");
      await engine.press("Enter"); // Accept All
      expect(await engine.evaluate((key: string) => localStorage.getItem(key), CONSENT_STORAGE_KEY)).toBe("accepted");
      expect(await focused()).toBe("a|Skip to content");
      // Reopened from the footer, answered from the keyboard: back on Cookie settings.
      await engine.evaluate(() => document.querySelector<HTMLElement>('[data-consent-action="reopen"]')!.focus());
      await engine.press("Enter");
      expect(await engine.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Cookie consent");
      await engine.press("Tab");
      await engine.press("Tab");
      expect(await focused()).toBe("button|Reject All");
      await engine.press("Enter");
      expect(await focused()).toBe("button|Cookie settings");
    });

    test("a tooltip that focus opened stays open while the page scrolls, and Escape closes it", async () => {
      await focusBeforePopup("#highlight-0");
      // The popup comes at 4 s; closing it gives focus back to the trigger, whose tooltip opens again.
      await popupHasFocus();
      await engine.press("Escape");
      const open = () =>
        engine.evaluate(() => document.getElementById("highlight-0")?.getAttribute("data-state")?.endsWith("open") ?? false);
      await until("the tooltip to open on focus", open);
      for (const by of [3, 150, -80]) {
        await engine.evaluate(
          (y: number) =>
            new Promise<void>((done) => {
              addEventListener("scroll", () => requestAnimationFrame(() => requestAnimationFrame(() => done())), { once: true });
              window.scrollBy({ top: y, behavior: "instant" });
            }),
          by,
        );
        expect(await open(), `after a scroll of ${by} px`).toBe(true);
      }
      await engine.press("Escape");
      await until("the tooltip to close", async () => !(await open()));
    }, 30_000);

    test("with the bundles blocked, the popup still shows and closes, and a tooltip shows on focus until Escape", async () => {
      engine.blockBundles(true);
      await returning("/");
      await popupHasFocus();
      await engine.press("Enter");
      await until("the popup to leave", () => engine.evaluate(() => !document.querySelector("[data-popup-phase]")), 5_000);
      expect(await engine.evaluate(() => document.querySelectorAll("astro-island:not([ssr])").length)).toBe(0);
      // Tabbed to, as a keyboard user does: the fallback shows, whole and on top, under its trigger.
      for (let i = 0; i < 40 && (await engine.evaluate(() => document.activeElement?.id)) !== "highlight-3"; i++) await engine.press("Tab");
      const drawn = () =>
        engine.evaluate(() => {
          const tip = document.getElementById("highlight-3-description")!;
          const box = tip.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return box.width > 40 && getComputedStyle(tip).visibility === "visible" && !!hit && tip.contains(hit);
        });
      await until("the fallback tooltip to show", drawn);
      await engine.press("Escape");
      await until("Escape to hide it", async () => !(await drawn()));
    }, 30_000);

    for (const path of ["/", "/privacy-policy"]) {
      test(`${path} with text zoom 200 %: the layout follows the text, nothing cut off or sideways`, async () => {
        await returning(path);
        await engine.evaluate(() => {
          document.documentElement.style.fontSize = "200%";
          return new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
        });
        expect(await engine.evaluate(textProblemsInPage)).toEqual([]);
      });
    }
  });
}
