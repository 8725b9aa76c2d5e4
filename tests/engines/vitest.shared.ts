import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * One Vitest config per browser engine, so each suite runs, lists and counts on its own
 * (`vitest run --config tests/engines/firefox.config.ts`). Each drives the built site in a real browser.
 */
export function engineConfig(engine: "firefox" | "webkit") {
  return defineConfig({
    root: fileURLToPath(new URL("../..", import.meta.url)),
    resolve: { alias: { "@": fileURLToPath(new URL("../../src", import.meta.url)) } },
    test: {
      name: engine,
      include: [`tests/engines/${engine}.test.ts`],
      environment: "node",
      // Tests share one browser and one page, in order.
      sequence: { concurrent: false },
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  });
}
