/**
 * The studio's timer (studio/workflow/schedule.ts `Scheduler`) on an injected clock: it publishes at
 * the moment and not before, runs the gate when a schedule is new and again an hour before, carries
 * out a missed moment at once with its lateness, leaves a schedule with an outcome to a principal,
 * tries again after 30 s when the host could not be reached, and stops when closed.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GATE_AHEAD_MS, Scheduler, scheduleOf, type Schedule } from "../../studio/workflow/schedule.ts";
import { statusCommit, STATUS_REFS } from "../../studio/workflow/status-refs.ts";

const MOMENT = Date.parse("2027-03-01T14:30:00Z");
const principal = { name: "Pat Example", email: "pat.example@example.com", role: "principal" as const };
const schedule = (over: Partial<Schedule> = {}): Schedule => ({
  at: new Date(MOMENT).toISOString(),
  timeZone: "America/New_York",
  holdIfLate: false,
  head: "a".repeat(40),
  by: principal,
  setAt: new Date(MOMENT - 3 * 3_600_000).toISOString(),
  ...over,
});

function rig(initial: Record<string, Schedule>, clockAt: number) {
  const board = new Map(Object.entries(initial));
  const steps: string[] = [];
  let now = clockAt;
  let failures = 0;
  const scheduler = new Scheduler({
    now: () => now,
    load: () => new Map(board),
    async check(branch, seen) {
      steps.push(`check ${branch} at ${new Date(now).toISOString()}`);
      board.set(branch, { ...seen, gate: { at: new Date(now).toISOString(), refusal: null } });
    },
    async fire(branch, seen, lateMs) {
      if (failures > 0) {
        failures--;
        throw new Error("the firm's git host could not be reached");
      }
      steps.push(`fire ${branch} late ${lateMs}`);
      board.delete(branch);
      void seen;
    },
  });
  return {
    scheduler,
    steps,
    board,
    at: (ms: number) => (now = ms),
    failNext: (n: number) => (failures = n),
  };
}

describe("the studio's timer", () => {
  it("checks a new schedule at once, again an hour before, and publishes at the moment, not before", async () => {
    const r = rig({ "cms/landing/hero": schedule() }, MOMENT - 3 * 3_600_000);
    await r.scheduler.tick();
    expect(r.steps).toEqual(["check cms/landing/hero at 2027-03-01T11:30:00.000Z"]);
    r.at(MOMENT - GATE_AHEAD_MS - 1000);
    await r.scheduler.tick();
    expect(r.steps).toHaveLength(1);
    r.at(MOMENT - GATE_AHEAD_MS);
    await r.scheduler.tick();
    expect(r.steps.at(-1)).toBe("check cms/landing/hero at 2027-03-01T13:30:00.000Z");
    r.at(MOMENT - 1);
    await r.scheduler.tick();
    expect(r.steps).toHaveLength(2);
    r.at(MOMENT + 400);
    await r.scheduler.tick();
    expect(r.steps.at(-1)).toBe("fire cms/landing/hero late 400");
    // Published once: the board no longer has it, and the next tick does nothing.
    await r.scheduler.tick();
    expect(r.steps).toHaveLength(3);
  });

  it("carries out a moment missed while it was down at its first tick, with how late", async () => {
    const r = rig({ "cms/landing/hero": schedule({ gate: { at: "2027-03-01T13:30:00.000Z", refusal: null } }) }, MOMENT + 120_000);
    r.scheduler.reload();
    await r.scheduler.tick();
    expect(r.steps).toEqual(["fire cms/landing/hero late 120000"]);
  });

  it("publishes the earlier moment first, and leaves a schedule with an outcome to a principal", async () => {
    const r = rig(
      {
        "cms/landing/popup": schedule({ at: new Date(MOMENT + 1000).toISOString(), gate: { at: "x", refusal: null } }),
        "cms/landing/hero": schedule({ gate: { at: "x", refusal: null } }),
        "cms/privacy/privacy-policy": schedule({ outcome: { kind: "refused", at: "x", text: "Not published: …" } }),
      },
      MOMENT + 5000,
    );
    r.scheduler.reload();
    await r.scheduler.tick();
    expect(r.steps).toEqual(["fire cms/landing/hero late 5000", "fire cms/landing/popup late 4000"]);
  });

  it("tries again 30 s after the host could not be reached, not before", async () => {
    const r = rig({ "cms/landing/hero": schedule({ gate: { at: "x", refusal: null } }) }, MOMENT);
    r.scheduler.reload();
    r.failNext(1);
    await r.scheduler.tick();
    expect(r.steps).toEqual([]);
    r.at(MOMENT + 29_000);
    await r.scheduler.tick();
    expect(r.steps).toEqual([]);
    r.at(MOMENT + 30_000);
    await r.scheduler.tick();
    expect(r.steps).toEqual(["fire cms/landing/hero late 30000"]);
  });

  it("ticks on its own once started, and not after it is closed", async () => {
    const r = rig({ "cms/landing/hero": schedule({ gate: { at: "x", refusal: null } }) }, MOMENT - 1000);
    const fast = new Scheduler({
      now: () => MOMENT + 1,
      load: () => new Map(r.board),
      check: async () => undefined,
      fire: async (branch) => void (r.steps.push(`fire ${branch}`), r.board.delete(branch)),
      tickMs: 5,
    });
    fast.start();
    await expect.poll(() => r.steps).toEqual(["fire cms/landing/hero"]);
    fast.close();
    const count = r.steps.length;
    r.board.set("cms/landing/popup", schedule({ gate: { at: "x", refusal: null } }));
    fast.reload();
    // Ten of its ticks pass: a closed timer carries out nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.steps).toHaveLength(count);
  });
});

describe("a schedule as the git host holds it", () => {
  it("is read back as written, and one the studio did not write (not JSON, a moment that is none) is not carried out", () => {
    const repo = mkdtempSync(join(tmpdir(), "schedule-ref-"));
    try {
      execFileSync("git", ["init", "--quiet", repo]);
      const put = (branch: string, text: string) =>
        execFileSync("git", ["update-ref", `${STATUS_REFS}${branch}`, statusCommit(repo, branch, "pending_publish", undefined, text)], {
          cwd: repo,
        });
      put("cms/landing/hero", JSON.stringify(schedule()));
      put("cms/landing/popup", "{ not json");
      put("cms/landing/status", JSON.stringify({ ...schedule(), at: "next Tuesday" }));
      put("cms/landing/contact", JSON.stringify({ ...schedule(), timeZone: "Mars/Olympus" }));
      expect(scheduleOf(repo, "cms/landing/hero")).toEqual(schedule());
      for (const branch of ["cms/landing/popup", "cms/landing/status", "cms/landing/contact", "cms/landing/features"])
        expect(scheduleOf(repo, branch), branch).toBeUndefined();
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
