import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from "vitest";
import { available, isCI, missingLine, type SystemDepName } from "../../../scripts/lib/system-deps.ts";
import type { Engine } from "./engine.ts";

/**
 * A describe block with one browser for all its tests: started once (a browser that cannot start fails
 * every test; a missing one skips them locally and fails them under CI), a fresh visitor for each test,
 * and after each, no uncaught page error and no request that would have left the machine.
 */
export function engineSuite(engine: Engine, needs: SystemDepName, title: string, body: () => void) {
  let missing = false;
  let startFailed: unknown;

  describe(title, () => {
    beforeAll(async () => {
      // Decided when the suite runs, not when it is listed, so a listing always counts every test.
      // available() prints the one line that names the apt command.
      missing = !available(needs);
      if (missing) return;
      try {
        await engine.start();
      } catch (error) {
        // Reported by every test (below), so a browser that cannot start counts as that many failures.
        startFailed = error;
      }
    }, 120_000);
    afterAll(() => engine.stop(), 60_000);
    beforeEach(async ({ skip }) => {
      // Locally a missing browser skips; CI must run every suite, so there it fails each test.
      if (missing && isCI()) throw new Error(missingLine(needs));
      if (missing) skip(missingLine(needs));
      if (startFailed) throw startFailed;
      await engine.fresh();
    });
    afterEach(async () => {
      if (missing || startFailed) return;
      expect(await engine.takeErrors(), "uncaught page errors (or the error screen)").toEqual([]);
      expect(engine.refused.splice(0), "requests that would have left the machine").toEqual([]);
      engine.provider.splice(0);
    });

    body();
  });
}
