import type { Page } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { POPUP_HIDE_AT_MS, POPUP_REMOVE_AFTER_MS } from "../../src/shared/constants.ts";
import { routeFormProvider } from "../../testing/form-provider";
import { afterFrames, clockAt, pausedClock } from "../support/site";

declare global {
  interface Window {
    layoutShift: { total: number; sources: string[]; probeCounted: boolean };
  }
}

const PROBE_ID = "layout-shift-probe";

/**
 * Resolves once the browser counts layout shifts again after an input: a painted 4 px probe of the test's own
 * moves every frame until the browser reports one of its shifts without `hadRecentInput`. (Its shifts,
 * about 5e-7 each, are left out of the total.) Needs the page's clock running (requestAnimationFrame).
 */
async function inputWindowClosed(page: Page) {
  await page.evaluate((id) => {
    const probe = document.createElement("div");
    probe.id = id;
    Object.assign(probe.style, { position: "fixed", top: "0", left: "0", width: "4px", height: "4px", background: "black" });
    document.body.append(probe);
    return new Promise<void>((done) => {
      let left = 0;
      const step = () => {
        if (window.layoutShift.probeCounted) {
          probe.remove();
          return done();
        }
        left = left === 0 ? 20 : 0;
        probe.style.left = `${left}px`;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
  }, PROBE_ID);
}

/**
 * Layout stability over a whole visit, not just the load: the banner appears and is dismissed, the
 * popup comes and goes, the visitor scrolls to the contact section and the form (a local fixture)
 * loads. Every layout-shift entry is summed, as CLS does (shifts right after input excluded).
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`a whole visit at ${viewport.width} px shifts the layout by at most 0.01`, async ({ page, context }) => {
    await page.setViewportSize(viewport);
    await routeFormProvider(context);
    await page.addInitScript((PROBE_ID) => {
      window.layoutShift = { total: 0, sources: [], probeCounted: false };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<
          PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }
        >) {
          const nodes = (entry.sources ?? []).map((source) => source.node as Element | undefined);
          // The test's own probe (below), alone in a frame: not the page's shift.
          if (nodes.length > 0 && nodes.every((node) => node?.id === PROBE_ID)) {
            if (!entry.hadRecentInput) window.layoutShift.probeCounted = true;
            continue;
          }
          if (entry.hadRecentInput) continue;
          window.layoutShift.total += entry.value;
          for (const node of nodes) window.layoutShift.sources.push(`${entry.value.toFixed(4)} ${node?.outerHTML?.slice(0, 80) ?? "?"}`);
        }
      }).observe({ type: "layout-shift", buffered: true });
    }, PROBE_ID);
    await pausedClock(page);
    await page.goto("/");
    // The measurement means something only if this browser reports layout shifts at all.
    expect(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes("layout-shift"))).toBe(true);
    await expect(page.getByRole("region", { name: "Cookie consent" })).toBeVisible();

    // No input before the popup: shifts within 500 ms (real time) of an input do not count, and the fake
    // clock reaches 4 s in an instant, so a click just before would hide the popup's shifts.
    // The popup shows at 4 s (page time).
    await clockAt(page, 4000);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toBeVisible();
    // It leaves the DOM at 12.5 s.
    await clockAt(page, POPUP_HIDE_AT_MS + POPUP_REMOVE_AFTER_MS);
    await expect(page.getByRole("dialog", { name: "Under Development" })).toHaveCount(0);
    await page.clock.resume();

    await page.getByRole("button", { name: "Accept All" }).click();
    // Shifts within 500 ms (real time, by the browser's own timer) of an input are left out of the score,
    // and the page's shifts after the click must count again: wait until the browser says so itself.
    await inputWindowClosed(page);

    for (let y = 0; y < (await page.evaluate(() => document.documentElement.scrollHeight)); y += viewport.height / 2) {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await afterFrames(page);
    }
    await expect(page.locator("[data-form-state]")).toHaveAttribute("data-form-state", "loaded");
    await afterFrames(page);
    const shift = await page.evaluate(() => window.layoutShift);
    expect(shift.total, shift.sources.join("\n")).toBeLessThanOrEqual(0.01);
  });
}
