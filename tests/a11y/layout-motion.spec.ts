import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { POPUP_SHOW_AT_MS } from "../../src/shared/constants.ts";
import { clockAt, openPage, PAGES } from "../support/site.ts";

/** Each element (and ::before / ::after) with an animation or a transition, as its computed style has it. */
type Moving = {
  label: string;
  animation: string;
  duration: string;
  delay: string;
  iterations: string;
  transition: string;
  transitionDuration: string;
};

/** What moves on the page: every element's and pseudo-element's computed motion, and whether scrolling is smooth. */
function movingParts(page: Page): Promise<{ parts: Moving[]; scroll: string }> {
  return page.evaluate(() => {
    const parts: Moving[] = [];
    for (const el of document.querySelectorAll("*")) {
      for (const pseudo of [null, "::before", "::after"]) {
        const style = getComputedStyle(el, pseudo);
        if (pseudo && style.content === "none") continue;
        if (style.animationName === "none" && style.transitionDuration.split(",").every((part) => !parseFloat(part))) continue;
        parts.push({
          label: `${el.tagName.toLowerCase()}.${(el.getAttribute("class") ?? "").split(" ").slice(0, 3).join(".")}${pseudo ?? ""}`,
          animation: style.animationName,
          duration: style.animationDuration,
          delay: style.animationDelay,
          iterations: style.animationIterationCount,
          transition: style.transitionProperty,
          transitionDuration: style.transitionDuration,
        });
      }
    }
    return { parts, scroll: getComputedStyle(document.documentElement).scrollBehavior };
  });
}

/** The longest of a computed list of times ("0.2s, 1s"), in seconds. */
const seconds = (value: string) => Math.max(...value.split(",").map((part) => parseFloat(part) || 0));

/** Every animation or transition that lasts longer than zero, or smooth scrolling. */
async function motion(page: Page): Promise<string[]> {
  const { parts, scroll } = await movingParts(page);
  const found: string[] = [];
  for (const { label, animation, duration, transition, transitionDuration } of parts) {
    if (animation !== "none" && seconds(duration) > 0) found.push(`${label}: animation ${animation} ${duration}`);
    if (seconds(transitionDuration) > 0) found.push(`${label}: transition ${transition} ${transitionDuration}`);
  }
  if (scroll !== "auto") found.push(`html: scroll-behavior ${scroll}`);
  return found;
}

/**
 * How long each animation on the page runs once it starts, in seconds: its delay, then its duration as
 * many times as it repeats (Infinity for an endless one). From the computed style, so a run that has
 * already ended on a slow machine still counts.
 */
async function animationLengths(page: Page): Promise<Record<string, number>> {
  const { parts } = await movingParts(page);
  return Object.fromEntries(
    parts
      .filter(({ animation }) => animation !== "none")
      .map(({ label, animation, duration, delay, iterations }) => [
        `${label} ${animation}`,
        seconds(delay) +
          seconds(duration) * Math.max(...iterations.split(",").map((n) => (n.trim() === "infinite" ? Infinity : Number(n)))),
      ]),
  );
}

/** Every page at 320 px with the cookie banner shown: in the axe matrix (axe.spec.ts), on the same page load as its axe run. */
test.describe("at 320 px (WCAG 1.4.10 reflow)", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("home with the popup open: no horizontal scrolling", async ({ page }) => {
    await openPage(page, "/");
    await clockAt(page, POPUP_SHOW_AT_MS);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});

test.describe("prefers-reduced-motion: reduce", () => {
  for (const { name, path } of PAGES) {
    test(`${name}: no animation, transition or smooth scroll`, async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await openPage(page, path, { banner: "shown", skipPopup: true });
      expect(await motion(page)).toEqual([]);
    });
  }

  test("home with the popup open: it appears without a fade", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openPage(page, "/");
    await clockAt(page, POPUP_SHOW_AT_MS);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    expect(await motion(page)).toEqual([]);
  });

  test("control: without the preference the status dot pulses and scrolling is smooth; every animation ends within 5 s (WCAG 2.2.2)", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await openPage(page, "/", { banner: "hidden", skipPopup: true });
    const found = await motion(page);
    expect(found).toContain("html: scroll-behavior smooth");
    expect(found.some((line) => line.includes("animation pulse-dot"))).toBe(true);
    // Each animation's whole run, from its computed style, ::after included: the dot's pulse is among
    // them, and none moves on for more than five seconds, so none needs a control to stop it.
    const lengths = await animationLengths(page);
    expect(
      Object.keys(lengths).some((name) => name.endsWith("::after pulse-dot")),
      JSON.stringify(lengths),
    ).toBe(true);
    for (const [name, length] of Object.entries(lengths)) expect(length, `${name} runs ${length} s`).toBeLessThanOrEqual(5);
  });
});
