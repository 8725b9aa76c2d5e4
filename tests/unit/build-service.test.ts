/**
 * The suites' shared build worker (tests/support/build-service.ts, decision 0060): its queue, with a
 * stand-in worker that speaks build-worker.ts's messages (tests/fixtures/queue-worker.ts), and a studio's
 * way to it (studio/workflow/builds.ts). Real builds through it are the studio suites' own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { servedBuilds, startBuildService } from "../support/build-service.ts";
import { projectRoot } from "../../lib/root.ts";

const scratch = mkdtempSync(join(tmpdir(), "build-service-test-"));
const log = join(scratch, "queue.log");
let service: Awaited<ReturnType<typeof startBuildService>>;

beforeAll(async () => {
  process.env.QUEUE_LOG = log;
  service = await startBuildService(join(projectRoot, "tests", "fixtures", "queue-worker.ts"));
});
afterAll(async () => {
  await service.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** vi.waitFor gives up after 1 s; a worker's start on a loaded machine takes longer (each test's own ceiling still bounds it). */
const LOADED = { timeout: 30_000, interval: 20 };

/** Every studio's socket a test opened: closed after it, whatever its outcome, before the next test counts them. */
const opened = new Set<ReturnType<typeof createConnection>>();
afterEach(async () => {
  for (const socket of opened) socket.destroy();
  opened.clear();
  await vi.waitFor(() => expect(service.connections()).toBe(0), LOADED);
});

/** A studio on the socket: its greeting, what it asks, what it is answered. */
async function studio() {
  const socket = createConnection(service.path);
  opened.add(socket);
  const lines: Array<Record<string, string | boolean>> = [];
  let rest = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    rest += chunk;
    for (let end = rest.indexOf("\n"); end >= 0; end = rest.indexOf("\n")) {
      lines.push(JSON.parse(rest.slice(0, end)) as Record<string, string | boolean>);
      rest = rest.slice(end + 1);
    }
  });
  await vi.waitFor(() => expect(lines).toHaveLength(1), LOADED);
  return {
    greeting: lines[0]!,
    ask: (build: string) =>
      new Promise<void>((sent) => socket.write(`${JSON.stringify({ build, outDir: "dist-preview" })}\n`, () => sent())),
    answers: (count: number) => vi.waitFor(() => expect(lines.length - 1).toBeGreaterThanOrEqual(count), LOADED).then(() => lines.slice(1)),
    leave: () => socket.destroy(),
    /** As a studio stops (builds.ts): asks, and resolves once the service has closed the socket. */
    stop: () =>
      new Promise<Array<Record<string, string | boolean>>>((closed) => {
        socket.once("close", () => closed(lines.slice(1)));
        socket.write(`${JSON.stringify({ stop: true })}\n`);
      }),
  };
}
const logged = () => readFileSync(log, "utf8").trim().split("\n");

describe("the suites' shared build worker", () => {
  it("builds one at a time for every studio, each studio's in the order it asked, and tells a newcomer once the worker is warm", async () => {
    writeFileSync(log, "");
    const [a, b] = [await studio(), await studio()];
    expect([a.greeting, b.greeting]).toEqual([{ warm: false }, { warm: false }]);
    await a.ask("/a1");
    await b.ask("/b1");
    await a.ask("/a2");
    expect(await a.answers(2)).toEqual([{ built: "/a1" }, { built: "/a2" }]);
    expect(await b.answers(1)).toEqual([{ built: "/b1" }]);
    const steps = logged().map((line) => line.split(" ").slice(0, 2).join(" "));
    // Each build ends before the next begins.
    for (let i = 0; i < steps.length; i += 2)
      expect([steps[i]!.split(" ")[0], steps[i + 1]]).toEqual(["begin", steps[i]!.replace("begin", "end")]);
    expect(steps.filter((step) => step.startsWith("begin"))).toHaveLength(3);
    expect(new Set(logged().map((line) => line.split(" ")[2])).size, "one worker for all").toBe(1);
    const c = await studio();
    expect(c.greeting).toEqual({ warm: true });
    for (const one of [a, b, c]) one.leave();
  });

  it("after a failed build, its studio is told with the worker's own output, and the next build has a new worker, cold", async () => {
    writeFileSync(log, "");
    const a = await studio();
    await a.ask("/x-fail");
    const [failed] = await a.answers(1);
    expect(failed).toMatchObject({ failed: "/x-fail" });
    expect(failed!.error).toMatch(/no space left on device[\s\S]*planted/);
    const b = await studio();
    expect(b.greeting, "a new worker is cold").toEqual({ warm: false });
    await b.ask("/y");
    expect(await b.answers(1)).toEqual([{ built: "/y" }]);
    const pids = logged().map((line) => line.split(" ")[2]);
    expect(pids[0]).not.toBe(pids.at(-1));
    // What it says it built, asked as a suite asks it: the build made, not the one that failed.
    const served = await servedBuilds(service.path);
    expect(served).toContain("/y");
    expect(served).not.toContain("/x-fail");
    a.leave();
    b.leave();
  });

  it("never sends a build to a worker that said it is leaving (over its memory limit, after a failed build): the next goes to a new one", async () => {
    writeFileSync(log, "");
    const a = await studio();
    // Back to back: each build after a leaving worker's answer is sent while that worker still ends.
    for (const build of ["/m-leave", "/z", "/w-fail", "/v"]) await a.ask(build);
    const answers = await a.answers(4);
    expect(answers.map((answer) => ("built" in answer ? `built ${answer.built}` : `failed ${answer.failed}`))).toEqual([
      "built /m-leave",
      "built /z",
      "failed /w-fail",
      "built /v",
    ]);
    // The studios keep their socket: a worker leaving is the service's to replace.
    expect(answers.filter((answer) => "leaving" in answer)).toEqual([]);
    const workers = logged()
      .filter((line) => line.startsWith("begin "))
      .map((line) => line.split(" ")[2]);
    expect(new Set([workers[0], workers[1], workers[3]]).size, "/m-leave, /z and /v by three workers").toBe(3);
    expect(workers[2], "/w-fail by the worker that built /z").toBe(workers[1]);
    const b = await studio();
    expect(b.greeting, "the worker that built /v is warm").toEqual({ warm: true });
    a.leave();
    b.leave();
  });

  it("never builds for a studio that left before its turn", async () => {
    writeFileSync(log, "");
    const [a, b] = [await studio(), await studio()];
    await a.ask("/first-hold");
    await vi.waitFor(() => expect(logged()).toContainEqual(expect.stringMatching(/^begin \/first-hold /)), LOADED);
    await b.ask("/gone");
    b.leave();
    await vi.waitFor(() => expect(service.connections()).toBe(1), LOADED);
    await a.ask("/after");
    writeFileSync(`${log}.release`, "");
    expect(await a.answers(2)).toEqual([{ built: "/first-hold" }, { built: "/after" }]);
    expect(logged().join("\n")).not.toContain("/gone");
    a.leave();
  });

  it("ends a stopping studio's build under way, with its worker's processes, before it says so; the next build has a new worker", async () => {
    writeFileSync(log, "");
    rmSync(`${log}.release`, { force: true });
    const [a, b] = [await studio(), await studio()];
    await a.ask("/long-hold");
    await vi.waitFor(() => expect(logged()).toContainEqual(expect.stringMatching(/^begin \/long-hold /)), LOADED);
    const pid = Number(logged()[0]!.split(" ")[2]);
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    const answered = await a.stop();
    expect(existsSync(`/proc/${pid}`), "the worker has ended as the studio is told").toBe(false);
    expect(answered).toEqual([
      { failed: "/long-hold", error: expect.stringContaining("the build worker ended with SIGTERM") as string },
      { stopped: true },
    ]);
    await b.ask("/then");
    expect(await b.answers(1)).toEqual([{ built: "/then" }]);
    expect(logged().join("\n")).not.toMatch(/^end \/long-hold/m);
    expect(Number(logged().at(-1)!.split(" ")[2])).not.toBe(pid);
    b.leave();
  });
});
