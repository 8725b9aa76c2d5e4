import type { Page } from "@playwright/test";

/**
 * Puts the page on a slow phone as Lighthouse's mobile preset models one: CPU four times slower, 150 ms
 * round trips, 1.6 Mbps down and 750 kbps up (Chrome DevTools Protocol, Chromium only).
 */
export async function slowPhone(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  return cdp;
}
