/**
 * Reads a Chromium performance trace (the Trace Event Format that DevTools records): the main thread of
 * the page's renderer, its tasks, its first contentful paint and its largest contentful paint (the last
 * candidate the browser reported: the frame in which the visitor saw the largest element), all in
 * milliseconds from navigation start. What DevTools' Performance panel shows, without Lighthouse's simulation.
 */

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; documentLoaderURL?: string; isLoadingMainFrame?: boolean; frame?: string }; frame?: string };
}

/** One task of the main thread, and the work inside it that took longest. */
export interface Task {
  start: number;
  duration: number;
  end: number;
  /** Its children by kind (parse, style, layout, script, paint…), longest first, in ms. */
  inside: Array<[string, number]>;
}

export interface Timeline {
  fcp: number;
  lcp: number;
  tasks: Task[];
}

/** Trace event names and the work they stand for, as DevTools names it. */
const KINDS: Record<string, string> = {
  ParseHTML: "parse HTML",
  UpdateLayoutTree: "style",
  Layout: "layout",
  PrePaint: "pre-paint",
  Paint: "paint",
  Layerize: "layerize",
  EvaluateScript: "script",
  "v8.compile": "compile",
  FunctionCall: "script",
  EventDispatch: "event",
  TimerFire: "timer",
  FireAnimationFrame: "animation frame",
  ParseAuthorStyleSheet: "parse CSS",
  "v8.compileModule": "compile",
  MajorGC: "GC",
  MinorGC: "GC",
  "V8.GC_SCAVENGER": "GC",
};

const TASK_NAMES = new Set(["RunTask", "ThreadControllerImpl::RunTask"]);

/** The page's main thread: the renderer thread that marked navigation start for `url`. */
export function readTimeline(events: TraceEvent[], url: string): Timeline {
  const start = events.find(
    (e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL === url && e.args.data.isLoadingMainFrame,
  );
  if (!start) throw new Error(`the trace has no navigationStart for ${url}`);
  const { pid, tid, ts: t0 } = start;
  const frame = start.args?.frame;
  const fcpEvent = events.find((e) => e.name === "firstContentfulPaint" && e.pid === pid && (!frame || e.args?.frame === frame));
  if (!fcpEvent) throw new Error("the trace has no first contentful paint");
  const ms = (ts: number) => (ts - t0) / 1000;
  const lcpEvent = events
    .filter((e) => e.name === "largestContentfulPaint::Candidate" && e.pid === pid && (!frame || e.args?.frame === frame))
    .sort((a, b) => a.ts - b.ts)
    .at(-1);
  if (!lcpEvent) throw new Error("the trace has no largest contentful paint");
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.dur !== undefined && e.ts >= t0);
  const tops = main.filter((e) => TASK_NAMES.has(e.name)).sort((a, b) => a.ts - b.ts);
  // Nested RunTasks (a task run inside another) count once, as the outer one.
  const tasks: Task[] = [];
  let lastEnd = -Infinity;
  let i = 0;
  const sorted = main.filter((e) => KINDS[e.name]).sort((a, b) => a.ts - b.ts);
  for (const task of tops) {
    if (task.ts < lastEnd) continue;
    const end = task.ts + task.dur!;
    lastEnd = end;
    const inside = new Map<string, number>();
    // Children by kind; an event nested in another of the same kind (script inside script) counts once.
    const kindEnd = new Map<string, number>();
    while (i < sorted.length && sorted[i]!.ts < task.ts) i++;
    for (let j = i; j < sorted.length && sorted[j]!.ts < end; j++) {
      const child = sorted[j]!;
      const kind = KINDS[child.name]!;
      if (child.ts < (kindEnd.get(kind) ?? -Infinity)) continue;
      kindEnd.set(kind, child.ts + child.dur!);
      inside.set(kind, (inside.get(kind) ?? 0) + child.dur! / 1000);
    }
    tasks.push({
      start: ms(task.ts),
      duration: task.dur! / 1000,
      end: ms(end),
      inside: [...inside].sort((a, b) => b[1] - a[1]),
    });
  }
  return { fcp: ms(fcpEvent.ts), lcp: ms(lcpEvent.ts), tasks };
}

/** The longest task that ended by the first paint, the longest that ended after it, and every task over `longMs`. */
export function summarize({ fcp, lcp, tasks }: Timeline, longMs = 50) {
  const longest = (list: Task[]) => list.reduce<Task | undefined>((best, t) => (!best || t.duration > best.duration ? t : best), undefined);
  return {
    fcp,
    lcp,
    beforePaint: longest(tasks.filter((t) => t.end <= fcp)),
    afterPaint: longest(tasks.filter((t) => t.end > fcp)),
    long: tasks.filter((t) => t.duration > longMs),
    longAfterPaint: tasks.filter((t) => t.duration > longMs && t.end > fcp),
  };
}

export const describeTask = (t: Task | undefined) =>
  t
    ? `${Math.round(t.duration)} ms at ${Math.round(t.start)} ms (${t.inside
        .slice(0, 4)
        .map(([kind, d]) => `${kind} ${Math.round(d)}`)
        .join(", ")})`
    : "none";
