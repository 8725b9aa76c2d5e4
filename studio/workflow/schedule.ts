/**
 * Publishing at the moment a principal approved (issue 56, decision 0057). The schedule is part of the
 * approval: set with it, by a principal, in the firm's time zone (STUDIO_TIME_ZONE), kept as the UTC
 * instant with the zone. It lives in the entry's status ref on the firm's git host (`schedule` beside
 * `status`, status-refs.ts), so it survives the studio's disk and restarts, and any change of status (an
 * edit, a return to review, a publish) clears it. It names the head the principal approved: a branch
 * that has moved since is never published by it.
 *
 * The studio's own timer (`Scheduler`, on an injected clock) publishes at the moment, within a second
 * or two, through the same path as Publish, after the approval gate runs again against the host's
 * current `main`; the gate also runs when the schedule is set and an hour before. A moment missed while
 * the studio was down is carried out at its next start, late and said so, unless the principal chose
 * "hold if late"; the host's `main` is the truth, so a second start never publishes twice.
 */
import { z } from "zod";
import { git } from "../git.ts";
import { isTimeZone } from "../../lib/approval/reviews.ts";
import type { Actor } from "../auth/sessions.ts";
import { instantOf, momentWritten, offsetWritten } from "../../lib/zoned-time.ts";
import { whenShort } from "../../lib/dates.ts";
import { entryName, listEntries, type Entry } from "./entries.ts";
import { appendEvent, type LoggedActor, type ReviewEvent } from "./log.ts";
import { recordStatuses, refsUnder, STATUS_REFS, statusCommit, statusIn } from "./status-refs.ts";
import { gateNow, GateRefusal, publishToOrigin } from "./publish.ts";
import type { HostSync } from "./host.ts";

export interface Schedule {
  /** The moment, in UTC (ISO 8601). */
  at: string;
  /** The firm's zone the principal chose it in (IANA). */
  timeZone: string;
  /** Publish nothing when the moment was missed (the studio was down) instead of publishing late. */
  holdIfLate: boolean;
  /** The entry's head the principal approved: the schedule holds only while the branch is there. */
  head: string;
  /** Who scheduled it (the principal). */
  by: LoggedActor;
  /** When it was set or last moved (UTC). */
  setAt: string;
  /** The gate's last answer ahead of the moment: null refusal when it would publish. */
  gate?: { at: string; refusal: string | null };
  /** The moment came and nothing was published: why. The schedule waits for a principal (approve again, move or cancel). */
  outcome?: { kind: "refused" | "held"; at: string; text: string };
}

/** Late by more than this, a publish counts as late ("hold if late" holds it). */
export const LATE_AFTER_MS = 60_000;
/** The gate runs again this long before the moment. */
export const GATE_AHEAD_MS = 60 * 60_000;
const FILE = "schedule";

/** What a schedule must be to be carried out (it comes from the git host, where anyone with push rights could write it). */
const scheduleSchema = z.object({
  at: z.iso.datetime(),
  timeZone: z.string().refine(isTimeZone),
  holdIfLate: z.boolean(),
  head: z.string().regex(/^[0-9a-f]{40}$/),
  by: z.object({ name: z.string().min(1), email: z.string().min(1) }).passthrough(),
  setAt: z.iso.datetime(),
});

/** The schedule of `branch`, as its status ref holds it; undefined when it has none, or one that is not a schedule (said in the log). */
export function scheduleOf(repo: string, branch: string): Schedule | undefined {
  let text: string;
  try {
    text = git(repo, "cat-file", "blob", `${STATUS_REFS}${branch}:${FILE}`);
  } catch {
    return undefined;
  }
  try {
    const schedule = JSON.parse(text) as Schedule;
    if (scheduleSchema.safeParse(schedule).success) return schedule;
  } catch {
    // Not JSON: said below.
  }
  console.error(`studio: the schedule of ${branch} on its status ref is not one the studio wrote; it is not carried out`);
  return undefined;
}

/** Every schedule on the board, by branch. */
export function schedulesOf(repo: string): Map<string, Schedule> {
  const found = new Map<string, Schedule>();
  for (const ref of refsUnder(repo, STATUS_REFS).keys()) {
    const branch = ref.slice(STATUS_REFS.length);
    const schedule = scheduleOf(repo, branch);
    if (schedule) found.set(branch, schedule);
  }
  return found;
}

/** Sets (or, with none, clears) the schedule of `branch` in its status ref, for the host to have at the next push. */
export function writeSchedule(repo: string, branch: string, schedule: Schedule | undefined) {
  recordStatuses(repo);
  const ref = `${STATUS_REFS}${branch}`;
  const current = refsUnder(repo, ref).get(ref);
  if (!current) return;
  if (!schedule && !scheduleOf(repo, branch)) return;
  const text = schedule && `${JSON.stringify(schedule, null, 2)}\n`;
  git(repo, "update-ref", ref, statusCommit(repo, branch, statusIn(repo, current), current, text), current);
}

export interface ScheduleForm {
  /** `<input type="datetime-local">`: "2027-03-01T09:30"; empty for none. */
  publishAt: string;
  /** Of a time that happens twice (the clocks go back): "earlier" or "later"; empty to be asked. */
  offset: string;
}

/** The instant a principal's "Publish at" names in `timeZone`, or the one sentence that refuses it. */
export function momentOf(form: ScheduleForm, timeZone: string, now: Date): { at: Date } | { refusal: string } {
  const local = form.publishAt.trim();
  const choose = form.offset === "earlier" || form.offset === "later" ? form.offset : undefined;
  const found = instantOf(local, timeZone, choose);
  const [day, time] = local.split("T");
  const named = () => `${time} on ${day}`;
  if (found.kind === "malformed") return { refusal: "Give the moment to publish as a date and a time, for example 2027-03-01 09:30." };
  if (found.kind === "missing")
    return {
      refusal: `There is no ${named()} in ${timeZone}: the clocks go forward that night, so that time is skipped. Choose another time.`,
    };
  if (found.kind === "ambiguous") {
    const [first, second] = found.instants;
    return {
      refusal: `${named()} happens twice in ${timeZone}, as the clocks go back that night: choose the first (${offsetWritten(first.offset)}) or the second (${offsetWritten(second.offset)}) under "If the time happens twice".`,
    };
  }
  if (found.at.getTime() <= now.getTime())
    return { refusal: `That moment has passed (${momentWritten(found.at, timeZone)}): choose a time ahead, or approve without one.` };
  return { at: found.at };
}

/** "Scheduled for 1 Mar 2027, 09:30 America/New_York (14:30 UTC) by Pat Example". */
export const scheduledLine = (schedule: Pick<Schedule, "at" | "timeZone" | "by">) =>
  `Scheduled for ${momentWritten(schedule.at, schedule.timeZone)} by ${schedule.by.name}`;

/** Where a schedule stands, in one sentence for the board and the entry. */
export function scheduleState(schedule: Schedule): string {
  if (schedule.outcome?.kind === "refused") return `Scheduled, needs approval again: ${schedule.outcome.text}`;
  if (schedule.outcome?.kind === "held")
    return `Held: ${schedule.outcome.text} A principal publishes it now, moves the schedule or cancels it.`;
  if (!schedule.gate) return "The approval gate has not run yet against the host's main.";
  return schedule.gate.refusal ?? `The approval gate passed against the host's main, ${whenShort(schedule.gate.at)}.`;
}

/** How late, in words: "2 min 5 s late". */
export function lateness(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s late`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min ${seconds % 60} s late`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min late`;
}

export interface SchedulerDeps {
  now(): number;
  /** Every schedule on the board, by branch. */
  load(): Map<string, Schedule>;
  /** Runs the gate for `branch` ahead of its moment and records its answer. */
  check(branch: string, schedule: Schedule): Promise<void>;
  /** Carries out `branch`'s schedule at (or after) its moment: publishes, holds or records the gate's refusal. */
  fire(branch: string, schedule: Schedule, lateMs: number): Promise<void>;
  /** How often the timer looks (1 s: a moment is met within it). */
  tickMs?: number;
}

/**
 * The timer: every tick it compares the clock with the schedules it holds (read again after every
 * change to the board, and every minute), and carries out what is due, one at a time. A schedule
 * whose publish could not reach the host is tried again after 30 s; one with an outcome waits for a
 * principal.
 */
export class Scheduler {
  readonly #deps: SchedulerDeps;
  #schedules = new Map<string, Schedule>();
  #timer?: NodeJS.Timeout;
  #busy: Promise<void> = Promise.resolve();
  #running = false;
  #loadedAt = 0;
  #retryAt = new Map<string, number>();
  #closed = false;

  constructor(deps: SchedulerDeps) {
    this.#deps = deps;
  }

  start() {
    this.reload();
    this.#arm();
  }

  /** Reads the schedules again (after a change to the board). */
  reload() {
    this.#schedules = this.#deps.load();
    this.#loadedAt = this.#deps.now();
  }

  #arm() {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.tick().finally(() => this.#arm()), this.#deps.tickMs ?? 1000);
    this.#timer.unref();
  }

  /** One look at the clock: what is due is carried out (resolves when it is). */
  tick(): Promise<void> {
    if (this.#running) return this.#busy;
    this.#running = true;
    this.#busy = this.#due().finally(() => (this.#running = false));
    return this.#busy;
  }

  async #due() {
    const now = this.#deps.now();
    if (now - this.#loadedAt > 60_000) this.reload();
    for (const [branch, schedule] of [...this.#schedules].sort(([, a], [, b]) => a.at.localeCompare(b.at))) {
      if (this.#closed) return;
      if (schedule.outcome) continue;
      if ((this.#retryAt.get(branch) ?? 0) > now) continue;
      const at = Date.parse(schedule.at);
      try {
        if (now >= at) {
          await this.#deps.fire(branch, schedule, now - at);
          this.#retryAt.delete(branch);
        } else if (!schedule.gate || (now >= at - GATE_AHEAD_MS && Date.parse(schedule.gate.at) < at - GATE_AHEAD_MS)) {
          await this.#deps.check(branch, schedule);
        } else continue;
      } catch (error) {
        // The host could not be reached, or a fault: the schedule stays, and is tried again.
        console.error(`studio: the schedule of ${branch} could not be carried out now (${(error as Error).message}); trying again in 30 s`);
        this.#retryAt.set(branch, now + 30_000);
      }
      this.reload();
    }
  }

  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
  }
}

export interface ScheduledPublishing {
  root: string;
  repo: string;
  host: HostSync;
  /** The studio's one-at-a-time turn (shared with the git API and the pages). */
  serially<T>(task: () => Promise<T>): Promise<T>;
  /** After the board or the log changed: the host is told. */
  logged(): Promise<void>;
  now(): Date;
}

/** The principal as the publish names them: the publisher recorded as "scheduled by" them. */
const schedulerActor = (by: LoggedActor): Actor => ({
  issuer: by.issuer ?? "studio",
  subject: by.subject ?? by.email,
  name: by.name,
  email: by.email,
  role: "principal",
  authTime: 0,
  local: false,
});

function scheduleEvent(
  repo: string,
  entry: Entry,
  kind: ReviewEvent["event"],
  schedule: Schedule,
  at: Date,
  comment?: string,
): ReviewEvent {
  return {
    event: kind,
    at: at.toISOString(),
    entry: { collection: entry.collection, slug: entry.slug, branch: entry.branch, name: entryName(repo, entry) },
    commit: entry.head,
    actor: schedule.by,
    schedule: { at: schedule.at, timeZone: schedule.timeZone, holdIfLate: schedule.holdIfLate },
    ...(comment ? { comment } : {}),
  };
}

/** The studio's timer over its board (server mode): the gate ahead of the moment, and the publish at it. */
export function scheduledPublishing(deps: ScheduledPublishing): Scheduler {
  const { root, repo, host } = deps;
  /** The entry and its schedule as they are now, in the turn; a schedule its branch has moved away from is cleared. */
  const current = (branch: string, seen: Schedule) => {
    const entry = listEntries(repo).find((e) => e.branch === branch);
    const schedule = scheduleOf(repo, branch);
    if (!entry || !schedule || schedule.at !== seen.at || schedule.setAt !== seen.setAt) return undefined;
    if (entry.head !== schedule.head || entry.status !== "pending_publish") {
      writeSchedule(repo, branch, undefined);
      return undefined;
    }
    return { entry, schedule };
  };
  return new Scheduler({
    now: () => deps.now().getTime(),
    load: () => schedulesOf(repo),
    async check(branch, seen) {
      const gated = await deps.serially(async () => {
        const found = current(branch, seen);
        if (!found) return false;
        const refusal = await gateNow(root, repo, found.entry);
        writeSchedule(repo, branch, { ...found.schedule, gate: { at: deps.now().toISOString(), refusal } });
        return true;
      });
      if (gated) await deps.logged();
    },
    async fire(branch, seen, lateMs) {
      const done = await deps.serially(async () => {
        const found = current(branch, seen);
        if (!found) return false;
        const { entry, schedule } = found;
        const now = deps.now();
        if (lateMs > LATE_AFTER_MS && schedule.holdIfLate) {
          const text = `it could not be published at ${momentWritten(schedule.at, schedule.timeZone)} (the studio was not running, or could not reach the firm's git host), and ${schedule.by.name} chose to hold it if late (${lateness(lateMs)}).`;
          writeSchedule(repo, branch, { ...schedule, outcome: { kind: "held", at: now.toISOString(), text } });
          appendEvent(repo, scheduleEvent(repo, entry, "schedule_held", schedule, now, `Not published: ${text}`));
          return true;
        }
        try {
          await publishToOrigin(root, repo, entry, schedulerActor(schedule.by), host, {
            at: schedule.at,
            timeZone: schedule.timeZone,
            lateMs,
          });
        } catch (error) {
          if (!(error instanceof GateRefusal)) throw error;
          console.error(`studio: the scheduled publish of ${branch} was refused by the approval gate: ${error.message}`);
          writeSchedule(repo, branch, { ...schedule, outcome: { kind: "refused", at: now.toISOString(), text: error.message } });
          appendEvent(repo, scheduleEvent(repo, entry, "schedule_refused", schedule, now, error.message));
        }
        return true;
      });
      if (done) await deps.logged();
    },
  });
}
