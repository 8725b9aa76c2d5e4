/**
 * Preview builds of a revision (`astro build` with unapproved text marked as drafts), made from a
 * `git archive` of it in `.studio/builds/<tree>/` (its pages and `src/` kept): the principal's review, the editor's View Preview
 * and the publish gate all read them. Keyed by tree, so a merge commit whose tree is the branch's
 * (main did not move) reuses the branch's build. One build at a time.
 *
 * A revision whose tree differs from a built one only in `approvals/` (an approval commit; a publish whose
 * merge is the approved branch) reuses that build: no page reads `approvals/`, whose ledger only marks
 * drafts and gates the publish (decision 0053), but for the day each document was last reviewed, which
 * is part of the key (decision 0056). Its pages' texts, its sources and its pages once their
 * draft marks are taken off are those of its own build, byte for byte (tests/studio/builds-reuse.test.ts).
 * Only View Preview, which shows the marks, asks for a revision's own build (`exact`).
 *
 * A cache with a bound (decision 0036): the builds of `main` and of every open entry's current head
 * are kept, and of the others the KEEP_RECENT most recently used; the rest are removed when the studio
 * starts and after each build. A build is made in a folder of its own (`<tree>.tmp-<pid>-<random>`) and
 * moved into place when complete, so a half-made build is never read; one left by a studio that was
 * killed is removed at the next start, and a build under way when the studio stops is stopped with it
 * and its folder removed. A disk that fills during a build fails that build with one sentence.
 *
 * `astro build` runs in the build worker (build-worker.ts, decision 0054), a process kept between builds
 * in a group of its own, started at the first build and stopped with the last studio of this process.
 */
import { fork, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { EventEmitter } from "node:events";
import { createConnection } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LEDGER_FILE, parseLedger, PREVIEW_TEXTS_FILE } from "../../lib/approval/ledger.ts";
import { policyTimeZone, POLICY_FILE, reviewDays } from "../../lib/approval/reviews.ts";
import { DOCUMENT_COLLECTIONS } from "../../src/content/schemas/files.ts";
import { git, HASH, StudioRefusal } from "../git.ts";
import { logLine } from "../logging.ts";
import { groupEnded, isRunning } from "../../lib/processes.ts";
import { projectRoot } from "../../lib/root.ts";
import type { BuildAnswer, BuildRequest } from "./build-worker.ts";

export type PageTexts = Record<string, { sha256: string; text: string }>;

export interface Build {
  tree: string;
  /** The archived sources of the revision (for its documents' titles). */
  folder: string;
  /** The built pages (dist-preview). */
  site: string;
  pages: PageTexts;
}

/**
 * How many builds beyond main's and the open entries' are kept: those a review, a publish or a View
 * Preview asked for last. Ten cover the merged results of the last publishes and the entries closed
 * lately (reopened, or looked at again). A build keeps its pages and the site's sources (`src/`), about
 * 1.5 MB today, so the cache stays within (open entries + 11) × 1.5 MB.
 */
export const KEEP_RECENT = 10;

/** The one sentence a person reads when the disk filled during a build. */
export const DISK_FULL =
  "The studio's disk is full, so it could not build the pages of this entry; nothing was lost. Tell the firm's IT, then try again.";

/** How long a build that failed for want of disk is answered as failed (a review page asks again every second while it waits) before it is tried again. */
const FAILED_FOR_MS = 10_000;

const building = new Map<string, Promise<Build>>();
/** The builds under way by what their pages are made from (pagesKeyOf). */
const buildingPages = new Map<string, Promise<Build>>();
const failed = new Map<string, { at: number; error: Error }>();
/** One build at a time: two at once on a small machine take longer than one after the other. */
let lastBuild: Promise<unknown> = Promise.resolve();
/** The builds' processes under way (each its own process group) and their folders, for a stop. */
const running = new Set<{ pid: number | undefined; work: string; done: Promise<unknown> }>();
/** Studios of this process using the builds: the last one to stop stops the builds under way, and none starts after. */
let users = 0;
let stopping = false;

/** Where the documents that show "Last reviewed" live. */
const DOCUMENT_FOLDERS = Object.values(DOCUMENT_COLLECTIONS).map(({ folder }) => folder);
/** A revision's tree (git.ts keeps it for a commit named by its hash: a review asks for it a dozen times). */
export const treeOf = (repo: string, revision: string): string => git(repo, "rev-parse", `${revision}^{tree}`);

export const buildsFolder = (root: string) => join(root, ".studio", "builds");

/** The file of a build that names what its pages were made from (pagesKeyOf). */
const PAGES_KEY = "pages-key";

/** What a finished build keeps of its folder. */
const KEPT = new Set(["src", "dist-preview", PAGES_KEY]);

/** The files no page reads but for one fact: the ledger, the approved texts and the principals' roster (decision 0053). */
const READ_BY_NO_PAGE = "approvals";

/** pagesKeyOf's answers by tree (a tree never changes; the same in every repository). */
const pagesKeys = new Map<string, string>();

/** A file of a tree, or undefined when it has none. */
function fileOfTree(repo: string, tree: string, path: string): string | undefined {
  try {
    return git(repo, "cat-file", "blob", `${tree}:${path}`);
  } catch {
    return undefined;
  }
}

/**
 * The one fact of `approvals/` pages read (decision 0056): the day each document page was last
 * reviewed, in the policy's time zone. A ledger or policy that does not parse counts as none: its build fails anyway.
 */
function reviewDaysOfTree(repo: string, tree: string): Record<string, string> {
  const documents = git(repo, "ls-tree", "-r", "--name-only", tree, "--", ...DOCUMENT_FOLDERS)
    .split("\n")
    .filter((file) => file.endsWith(".md"))
    .map((file) => `/${file.slice(file.lastIndexOf("/") + 1, -".md".length)}`);
  const ledger = fileOfTree(repo, tree, LEDGER_FILE);
  if (!ledger || documents.length === 0) return {};
  try {
    return reviewDays(parseLedger(ledger), documents, policyTimeZone(fileOfTree(repo, tree, POLICY_FILE)));
  } catch {
    return {};
  }
}

/** What a tree's pages are made from: the tree less `approvals/`, and the review days its documents show, as a hash. */
export function pagesKeyOf(repo: string, tree: string): string {
  const known = pagesKeys.get(tree);
  if (known) return known;
  const entries = git(repo, "ls-tree", "-z", tree)
    .split("\0")
    .filter((entry) => entry && !entry.endsWith(`\t${READ_BY_NO_PAGE}`));
  const key = createHash("sha256")
    .update(entries.join("\0"))
    .update(`\0${JSON.stringify(reviewDaysOfTree(repo, tree))}`)
    .digest("hex");
  if (pagesKeys.size > 10_000) pagesKeys.clear();
  pagesKeys.set(tree, key);
  return key;
}

/** A complete build made from the same pages as `key`, if there is one. */
function builtWithPages(root: string, key: string): string | undefined {
  const builds = buildsFolder(root);
  if (!existsSync(builds)) return undefined;
  for (const name of readdirSync(builds)) {
    if (!HASH.test(name) || !existsSync(join(builds, name, "dist-preview", PREVIEW_TEXTS_FILE))) continue;
    try {
      if (readFileSync(join(builds, name, PAGES_KEY), "utf8") === key) return join(builds, name);
    } catch {
      // A build made before its key was kept, or removed meanwhile: not reused.
    }
  }
  return undefined;
}

const WORK = /^([0-9a-f]{40}(?:[0-9a-f]{24})?)\.tmp-(\d+)-[0-9a-f]+$/;

/** Marks a build as used now: the last used are the ones kept. */
function touch(folder: string) {
  const now = new Date();
  try {
    utimesSync(folder, now, now);
  } catch {
    // Removed meanwhile by another studio sharing the folder (the tests'): it is made again when asked for.
  }
}

/**
 * The preview build of a revision (made once per tree). Unless `exact`, a build of a tree that differs
 * only in what no page reads is answered instead: the same pages, their draft marks those of its ledger.
 */
export function buildOf(root: string, repo: string, revision: string, { exact = false } = {}): Promise<Build> {
  const tree = treeOf(repo, revision);
  const folder = join(buildsFolder(root), tree);
  const site = join(folder, "dist-preview");
  const texts = join(site, PREVIEW_TEXTS_FILE);
  const readFrom = (made: string): Build => ({
    tree,
    folder: made,
    site: join(made, "dist-preview"),
    pages: (JSON.parse(readFileSync(join(made, "dist-preview", PREVIEW_TEXTS_FILE), "utf8")) as { pages: PageTexts }).pages,
  });
  const read = () => readFrom(folder);
  if (existsSync(texts)) {
    touch(folder);
    return Promise.resolve(read());
  }
  const key = pagesKeyOf(repo, tree);
  if (!exact) {
    const same = builtWithPages(root, key);
    if (same) {
      touch(same);
      return Promise.resolve(readFrom(same));
    }
    const under = buildingPages.get(key);
    if (under) return under.then(({ folder: made }) => readFrom(made));
  }
  const failure = failed.get(tree);
  if (failure && Date.now() - failure.at < FAILED_FOR_MS) return Promise.reject(failure.error);
  let build = building.get(tree);
  if (!build) {
    const turn = lastBuild.then(async () => {
      if (existsSync(texts)) return;
      await make(root, repo, tree, folder, key);
      pruneBuilds(root, repo);
    });
    lastBuild = turn.catch(() => undefined);
    build = turn.then(read);
    building.set(tree, build);
    buildingPages.set(key, build);
    void build
      .then(
        () => failed.delete(tree),
        (error: Error) => (error instanceof StudioRefusal ? failed.set(tree, { at: Date.now(), error }) : undefined),
      )
      .finally(() => {
        building.delete(tree);
        if (buildingPages.get(key) === build) buildingPages.delete(key);
      });
  }
  return build;
}

/** A command in a process group of its own (so a stop ends it and everything it started); rejects with its output. */
function runGroup(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; work: string }): Promise<void> {
  if (stopping) return Promise.reject(new Error("the studio is stopping"));
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-16_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const done = new Promise<void>((resolve, reject) => {
    child.once("error", (error) => reject(Object.assign(error, { output })));
    child.once("close", (code, signal) =>
      code === 0 ? resolve() : reject(Object.assign(new Error(`${command} ended with ${signal ?? `exit ${code}`}`), { output })),
    );
  });
  const entry = { pid: child.pid!, work: options.work, done: done.catch(() => undefined) };
  running.add(entry);
  void entry.done.then(() => running.delete(entry));
  return done;
}

/** What the studio needs of its build worker's channel: a forked process's IPC, or a shared worker's socket. */
interface WorkerChannel {
  send(message: BuildRequest, callback: (error: Error | null) => void): unknown;
  on(event: "message", listener: (answer: BuildAnswer) => void): unknown;
  off(event: "message", listener: (answer: BuildAnswer) => void): unknown;
  once(event: "exit", listener: (code: number | null, signal: string | null) => void): unknown;
  off(event: "exit", listener: (code: number | null, signal: string | null) => void): unknown;
}

/**
 * The build worker (build-worker.ts, decision 0054): started at the first build, kept between builds.
 * `pid`: its process group, stopped with the last studio of this process; none for a shared worker.
 */
let worker: { channel: WorkerChannel; pid?: number; output: string; done: Promise<void>; close?: () => Promise<void> } | undefined;
/** Whether this process's build worker has made a build since it started (a warm one makes the next in a third of the time). */
let workerWarm = false;

/**
 * A build worker shared by every studio of a run of the suites, named by its socket
 * (tests/support/build-service.ts, decision 0060): a studio's own worker starts cold in every test file. Never set in production.
 */
export const SHARED_BUILD_WORKER = "STUDIO_BUILD_WORKER_SOCKET";

function startWorker(): NonNullable<typeof worker> {
  const child = fork(fileURLToPath(new URL("./build-worker.ts", import.meta.url)), [], {
    cwd: projectRoot,
    detached: true,
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const started = {
    channel: child as WorkerChannel,
    pid: child.pid,
    output: "",
    done: new Promise<void>((done) => child.once("close", () => done())),
  };
  const keep = (chunk: Buffer) => (started.output = (started.output + chunk.toString("utf8")).slice(-16_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  void started.done.then(() => {
    if (worker === started) [worker, workerWarm] = [undefined, false];
  });
  return started;
}

/**
 * The shared build worker over its socket, one JSON line a message: first `{ warm }` from it (whether it
 * has built), then the worker's own answers to this studio's requests. Undefined when it cannot be reached:
 * the studio then starts its own.
 */
async function connectShared(path: string): Promise<NonNullable<typeof worker> | undefined> {
  const socket = createConnection(path);
  const channel = new EventEmitter();
  let lines = "";
  let greeted: (warm: boolean | undefined) => void = () => undefined;
  const greeting = new Promise<boolean | undefined>((resolve) => (greeted = resolve));
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    lines += chunk;
    for (let end = lines.indexOf("\n"); end >= 0; end = lines.indexOf("\n")) {
      const message = JSON.parse(lines.slice(0, end)) as BuildAnswer | { warm: boolean } | { stopped: true };
      lines = lines.slice(end + 1);
      if ("warm" in message) greeted(message.warm);
      else if (!("stopped" in message)) channel.emit("message", message);
    }
  });
  const done = new Promise<void>((resolve) =>
    socket.once("close", () => {
      greeted(undefined);
      channel.emit("exit", null, "the shared build worker's socket closing");
      resolve();
    }),
  );
  socket.on("error", () => undefined);
  const warm = await greeting;
  if (warm === undefined) return undefined;
  const started = {
    channel: Object.assign(channel, {
      send: (message: BuildRequest, callback: (error: Error | null) => void) =>
        socket.write(`${JSON.stringify(message)}\n`, (error) => callback(error ?? null)),
    }) as WorkerChannel,
    output: "",
    done,
    // This studio stopping: the worker drops its requests and ends a build of its under way, then closes the socket.
    close: () =>
      new Promise<void>((closed) => {
        if (socket.destroyed) return closed();
        socket.once("close", () => closed());
        socket.write(`${JSON.stringify({ stop: true })}\n`);
        setTimeout(() => socket.destroy(), 10_000).unref();
      }),
  };
  workerWarm = warm;
  void done.then(() => {
    if (worker === started) [worker, workerWarm] = [undefined, false];
  });
  return started;
}

/** This process's build worker: the shared one where a run of the suites offers it, else one of its own. */
async function buildWorker(): Promise<NonNullable<typeof worker>> {
  const shared = process.env[SHARED_BUILD_WORKER];
  worker ??= (shared ? await connectShared(shared) : undefined) ?? startWorker();
  return worker;
}

/**
 * Warms the build worker (server mode, at start): once main's build is there, a build of main's tree in a
 * folder of its own, kept nowhere, unless the worker has built since it started. Queued like any build,
 * so a review asked for meanwhile waits for it, then takes a third of the time.
 */
export function warmBuildWorker(root: string, repo: string): Promise<void> {
  const turn = lastBuild.then(async () => {
    if (stopping) return;
    // A shared worker says as it is reached whether it has built.
    await buildWorker();
    if (workerWarm || stopping) return;
    const work = join(buildsFolder(root), `${treeOf(repo, "main")}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
    try {
      await unpack(root, repo, "main", work);
      const started = performance.now();
      await workerBuild(work);
      logLine("build worker warmed", { ms: Math.round(performance.now() - started) });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  lastBuild = turn.catch(() => undefined);
  return turn;
}

/**
 * The folders of a revision that no build reads (lib/fingerprint.ts's BUILD_INPUTS names what one reads):
 * the tests, with their screenshots' baselines, and the documentation with its pictures, 17.8 of the
 * archive's 20.9 MB at 09042ea. Left out of a build's folder, they are neither written nor removed for
 * each build (0.25 s of a build's unpacking became 0.08 s). A preview made without them is the pages the
 * command line makes from the whole tree, byte for byte (tests/studio/builds-reuse.test.ts).
 */
const NOT_BUILT = ["tests", "docs"];

/** A revision's files in `work`, ready to build: its archive but for NOT_BUILT, and the project's packages linked in. */
async function unpack(root: string, repo: string, revision: string, work: string): Promise<void> {
  mkdirSync(work, { recursive: true });
  const leftOut = NOT_BUILT.map((folder) => `':(exclude)${folder}'`).join(" ");
  await runGroup("sh", ["-c", `git -C "$1" archive "$2" -- . ${leftOut} | tar -x -C "$3"`, "archive", repo, revision, work], { work });
  symlinkSync(join(root, "node_modules"), join(work, "node_modules"), "dir");
}

/** `astro build` of the preview in `work`, by the build worker; rejects with its output. */
async function workerBuild(work: string): Promise<void> {
  if (stopping) throw new Error("the studio is stopping");
  const current = await buildWorker();
  if (stopping) throw new Error("the studio is stopping");
  current.output = "";
  const { channel } = current;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (message: string) => reject(Object.assign(new Error(message), { output: current.output }));
    const answered = (answer: BuildAnswer) => {
      const mine = "built" in answer ? answer.built === work : answer.failed === work;
      // Ending after this answer: the next build starts a new worker rather than wait on, or fail with, this one.
      if (mine && answer.leaving && worker === current) [worker, workerWarm] = [undefined, false];
      if ("built" in answer && answer.built === work) settle(() => ((workerWarm = worker === current), resolve()));
      else if ("failed" in answer && answer.failed === work) {
        current.output += `\n${answer.error}`;
        settle(() => fail(`the build worker's astro build failed`));
      }
    };
    const ended = (code: number | null, signal: string | null) =>
      settle(() => fail(`the build worker ended with ${signal ?? `exit ${code}`}`));
    const settle = (then: () => void) => {
      channel.off("message", answered);
      channel.off("exit", ended);
      then();
    };
    channel.on("message", answered);
    channel.once("exit", ended);
    channel.send({ build: work, outDir: "dist-preview" } satisfies BuildRequest, (error) => error && settle(() => fail(error.message)));
  });
  const entry = { pid: current.pid, work, done: done.catch(() => undefined) };
  running.add(entry);
  void entry.done.then(() => running.delete(entry));
  return done;
}

const diskFull = (error: unknown) =>
  (error as NodeJS.ErrnoException)?.code === "ENOSPC" ||
  /ENOSPC|No space left on device/i.test((error as { output?: string })?.output ?? "");

/** Builds in a folder of its own, moved into place when complete: a half-made build is never read. */
async function make(root: string, repo: string, tree: string, folder: string, key: string): Promise<void> {
  const work = `${folder}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const done = join(folder, "dist-preview", PREVIEW_TEXTS_FILE);
  try {
    await unpack(root, repo, tree, work);
    const started = performance.now();
    await workerBuild(work);
    logLine("preview built", { tree, ms: Math.round(performance.now() - started) });
    // Kept of a build: its pages, and its sources for the documents' titles (titles.ts); the rest (pictures of
    // the documentation, the tests) is 95 % of the archive and is never read again.
    unlinkSync(join(work, "node_modules"));
    for (const name of readdirSync(work)) if (!KEPT.has(name)) rmSync(join(work, name), { recursive: true, force: true });
    writeFileSync(join(work, PAGES_KEY), key);
    // Another studio sharing the folder (the tests' throw-away clones) may have built the same tree meanwhile: the first stays.
    if (!existsSync(done)) {
      rmSync(folder, { recursive: true, force: true });
      renameSync(work, folder);
      touch(folder);
    }
  } catch (error) {
    if (existsSync(done)) return;
    const output = (error as { output?: string }).output ?? "";
    if (diskFull(error)) {
      logLine("preview build failed", { tree, reason: "no space left on the builds' disk" });
      throw new StudioRefusal(DISK_FULL, { cause: error });
    }
    throw new Error(`the preview build of tree ${tree.slice(0, 7)} failed:\n${output.slice(-3000)}`, { cause: error });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The trees whose builds are always kept: main's and each open entry's current head's; and what their pages are made from. */
function openTrees(repo: string): { trees: Set<string>; pages: Set<string> } {
  const trees = new Set(git(repo, "for-each-ref", "--format=%(tree)", "refs/heads/main", "refs/heads/cms/").split("\n").filter(Boolean));
  return { trees, pages: new Set([...trees].map((tree) => pagesKeyOf(repo, tree))) };
}

/** What a build's pages were made from, as its folder says (none for one made before the key was kept). */
function pagesKeyIn(folder: string): string | undefined {
  try {
    return readFileSync(join(folder, PAGES_KEY), "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Removes the builds no longer kept (see KEEP_RECENT), and the folders of builds interrupted by a studio
 * that is no longer running; returns the names removed. Builds of this process under way are left alone.
 */
export function pruneBuilds(root: string, repo: string): string[] {
  const builds = buildsFolder(root);
  if (!existsSync(builds)) return [];
  const keep = openTrees(repo);
  const removed: string[] = [];
  const remove = (name: string) => {
    rmSync(join(builds, name), { recursive: true, force: true });
    removed.push(name);
  };
  const complete: Array<{ name: string; used: number }> = [];
  for (const name of readdirSync(builds)) {
    const interrupted = WORK.exec(name);
    if (interrupted) {
      const pid = Number(interrupted[2]);
      if (pid !== process.pid && !isRunning(pid)) remove(name);
    } else if (HASH.test(name) && !keep.trees.has(name) && !keep.pages.has(pagesKeyIn(join(builds, name)) ?? "") && !building.has(name)) {
      try {
        complete.push({ name, used: statSync(join(builds, name)).mtimeMs });
      } catch {
        // Removed meanwhile by another studio sharing the folder.
      }
    }
  }
  complete.sort((a, b) => b.used - a.used);
  for (const { name } of complete.slice(KEEP_RECENT)) remove(name);
  if (removed.length) logLine("preview builds removed", { count: removed.length });
  return removed;
}

/**
 * A studio starts using the builds: removes what a stopped or killed studio left, and what the bound no
 * longer keeps. `stop` (with the studio) stops the builds under way when no other studio of this
 * process uses them, and removes their folders.
 */
export function openBuilds(root: string, repo: string): { stop(): Promise<void> } {
  users++;
  stopping = false;
  pruneBuilds(root, repo);
  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      if (--users > 0) return;
      stopping = true;
      const under = [...running];
      // The build worker, idle or building, goes too; a shared one ends a build of this studio's and stays for the others.
      const groups = new Set([...under.map(({ pid }) => pid), worker?.pid].filter((pid) => pid !== undefined));
      const idle = worker?.done;
      for (const pid of groups) {
        try {
          process.kill(-pid, "SIGTERM");
        } catch {
          // Ended meanwhile.
        }
      }
      await worker?.close?.();
      await Promise.all([...under.map(({ done }) => done), idle]);
      // The build's leader has ended; the rest of its group (esbuild's service, workers) may not have yet.
      await Promise.all([...groups].map((pid) => groupEnded(pid)));
      // make() removes its folder when its process ends; this is for certainty when it could not.
      for (const { work } of under) rmSync(work, { recursive: true, force: true });
    },
  };
}
