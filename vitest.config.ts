import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Unit, component and server tests (no browser). Components opt into happy-dom per file. */
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "tests/server/**/*.test.ts"],
    environment: "node",
    // Component tests must not fetch: scripts they add (the form provider's) are never loaded.
    environmentOptions: { happyDOM: { settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
