/**
 * A throw-away Ceph cluster with its S3 gateway, for the records store's tests: radosgw enforces S3
 * Object Lock for real (COMPLIANCE retention cannot be shortened or deleted), which no S3 server on npm
 * does. One monitor, one OSD keeping everything in memory (memstore), one gateway; no cephx.
 *
 * Needs Debian 12's `radosgw`, `ceph-mon` and `ceph-osd` packages (they bring `ceph`, `monmaptool` and
 * `radosgw-admin`). Runs as root (CI) or as an ordinary user. Nothing is written outside its temp folder:
 * the config moves there every path Ceph would otherwise use (/var/run/ceph for sockets and pid files,
 * /var/log/ceph for the daemons' and the cluster's logs, /var/lib/ceph for data and crash reports,
 * /etc/ceph for keyrings). Each daemon runs in its own process group, so stopping kills exactly those.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { onFreePort, PortTakenError } from "../lib/ports.ts";

export interface CephS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** How long any one step may take (the whole cluster is ready in about 4 s). */
const WAIT_MS = 90_000;
const REGION = "us-east-1";

interface Daemon {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  /** What it logged so far (its log file and its output). */
  log(): string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether `promise` settled within `ms` (the timer does not outlive it). */
const within = async (promise: Promise<unknown>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return settled;
};
const running = (daemon: Daemon) => daemon.child.exitCode === null && daemon.child.signalCode === null;

/** SIGTERM to the daemon's process group, SIGKILL if it is still there after 10 s. */
async function halt(daemon: Daemon) {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-daemon.child.pid!, name);
    } catch {
      // The group is gone already.
    }
  };
  if (daemon.child.pid === undefined || !running(daemon)) return;
  signal("SIGTERM");
  if (!(await within(daemon.exited, 10_000))) {
    signal("SIGKILL");
    await within(daemon.exited, 5_000);
  }
}

/**
 * Kills the daemons' process groups and removes the folder ($1) if this process ends without stop() (a
 * crash, a killed test worker): a shell reading the groups from a pipe, which closes when this process ends.
 */
const WATCHDOG = `groups=""
while read -r line; do
  if [ "$line" = release ]; then exit 0; fi
  groups="$groups -$line"
done
if [ -n "$groups" ]; then kill -9 $groups 2>/dev/null; sleep 1; fi
rm -rf "$1"`;

export async function startCephS3(): Promise<CephS3> {
  const dir = mkdtempSync(join(tmpdir(), "ceph-s3-"));
  for (const sub of ["run", "log", "rgw", "crash"]) mkdirSync(join(dir, sub), { recursive: true });
  const watchdog = spawn("sh", ["-c", WATCHDOG, "ceph-watchdog", dir], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  watchdog.unref();
  (watchdog.stdin as Socket).unref();
  const cluster = new Cluster(dir, (pid) => watchdog.stdin!.write(`${pid}\n`));
  const stop = async () => {
    for (const daemon of [...cluster.daemons].reverse()) await halt(daemon);
    watchdog.stdin!.end("release\n");
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await onFreePort((port) => cluster.startMonitor(port));
    await cluster.startOsd();
    const accessKeyId = `ARCHIVE${randomBytes(6).toString("hex").toUpperCase()}`;
    const secretAccessKey = randomBytes(24).toString("base64url");
    // Before the gateway starts: radosgw-admin makes the zone and its pools, the gateway then finds them.
    await cluster.ceph(
      "radosgw-admin",
      ["-n", "client.rgw", "user", "create", "--uid=archive", "--display-name=Records tests", `--access-key=${accessKeyId}`],
      [`--secret-key=${secretAccessKey}`],
    );
    const endpoint = await onFreePort((port) => cluster.startGateway(port, { accessKeyId, secretAccessKey }));
    return { endpoint, region: REGION, accessKeyId, secretAccessKey, stop };
  } catch (error) {
    const logs = tails(join(dir, "log"));
    await stop();
    throw new Error(`The Ceph test cluster did not start: ${error instanceof Error ? error.message : String(error)}\n${logs}`, {
      cause: error,
    });
  }
}

/** The last lines of every log, for a failure's message. */
function tails(logDir: string): string {
  if (!existsSync(logDir)) return "";
  return readdirSync(logDir)
    .filter((file) => /\.(log|out)$/.test(file) && !/audit|client\.admin/.test(file))
    .map((file) => {
      const lines = readFileSync(join(logDir, file), "utf8").trimEnd().split("\n").slice(-15);
      return `--- ${file} ---\n${lines.join("\n")}`;
    })
    .join("\n");
}

class Cluster {
  readonly fsid = randomUUID();
  readonly dir: string;
  readonly conf: string;
  readonly daemons: Daemon[] = [];
  readonly watch: (pid: number) => void;

  constructor(dir: string, watch: (pid: number) => void) {
    this.dir = dir;
    this.conf = join(dir, "ceph.conf");
    this.watch = watch;
  }

  /**
   * Runs a Ceph command-line tool against this cluster; rejects with its output. `secret` arguments are
   * left out of errors. A `ceph` command is asked again when the monitor refused it before running it:
   * a client's first request can reach the monitor without the cluster's fsid (the monitor logs
   * "handle_command on fsid 00000000-… != <ours>"), and the command then fails with "EPERM: problem
   * getting command descriptions from mon" (a fresh-clone CI run, 2026-11-26, at `osd new`).
   */
  async ceph(program: string, args: string[], secret: string[] = []): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(program, args, secret);
      } catch (error) {
        const refusedUnread = program === "ceph" && /problem getting command descriptions from mon/.test((error as Error).message);
        if (!refusedUnread || attempt === 5) throw error;
        await sleep(200);
      }
    }
  }

  private once(program: string, args: string[], secret: string[]): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile(
        program,
        ["-c", this.conf, ...args, ...secret],
        { encoding: "utf8", timeout: 30_000, env: cephEnv() },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${program} ${args.join(" ")} failed: ${(stderr || error.message).trim()}`)) : resolve(stdout.trim()),
      ),
    );
  }

  /** A daemon in the foreground, in its own process group, its output in log/<name>.out. */
  spawn(name: string, program: string, args: string[]): Daemon {
    const files = [`${name}.log`, `${name}.out`].map((file) => join(this.dir, "log", file));
    for (const file of files) rmSync(file, { force: true });
    const out = openSync(files[1]!, "w");
    const child = spawn(program, ["-c", this.conf, "-f", ...args], { detached: true, stdio: ["ignore", out, out], env: cephEnv() });
    closeSync(out);
    if (child.pid !== undefined) this.watch(child.pid);
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()).once("error", () => resolve()));
    const log = () => files.map((file) => (existsSync(file) ? readFileSync(file, "utf8") : "")).join("\n");
    const daemon = { name, child, exited, log };
    this.daemons.push(daemon);
    return daemon;
  }

  /**
   * Polls `probe` until it answers, the daemon exits, or WAIT_MS passes. A daemon that logs `portTaken`
   * is stopped and forgotten, and PortTakenError sends the caller to another port.
   */
  async until<T>(daemon: Daemon, what: string, probe: () => Promise<T | undefined>, portTaken?: RegExp): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const answer = await probe();
      if (answer !== undefined) return answer;
      if (portTaken?.test(daemon.log())) {
        await halt(daemon);
        this.daemons.splice(this.daemons.indexOf(daemon), 1);
        throw new PortTakenError(`${daemon.name}: ${portTaken.source}`);
      }
      if (!running(daemon)) throw new Error(`${daemon.name} exited (${daemon.child.exitCode ?? daemon.child.signalCode}) before ${what}`);
      if (Date.now() > deadline) throw new Error(`${what}: no answer after ${WAIT_MS / 1000} s`);
      await sleep(200);
    }
  }

  /** The port is in the monitor's map, so each attempt makes the monitor anew. */
  async startMonitor(port: number) {
    const mon = `v1:127.0.0.1:${port}`;
    writeFileSync(this.conf, config(this.dir, this.fsid, mon));
    rmSync(join(this.dir, "mon"), { recursive: true, force: true });
    mkdirSync(join(this.dir, "mon"));
    const monmap = join(this.dir, "monmap");
    await this.ceph("monmaptool", ["--create", "--clobber", "--add", "a", mon, "--fsid", this.fsid, monmap]);
    await this.ceph("ceph-mon", ["--mkfs", "-i", "a", "--monmap", monmap]);
    const daemon = this.spawn("mon.a", "ceph-mon", ["-i", "a"]);
    // It does not exit when the port is taken: it logs "unable to bind" and tries again every 5 s.
    await this.until(
      daemon,
      "the monitor answering ceph -s",
      async () => {
        // Another cluster's monitor could hold the port: ours is the one with our fsid.
        const status = await this.ceph("ceph", ["--connect-timeout", "5", "-s", "-f", "json"]).catch(() => "{}");
        return (JSON.parse(status) as { fsid?: string }).fsid === this.fsid ? true : undefined;
      },
      /unable to bind/,
    );
  }

  /** The OSD picks its own free ports (6800–7300) and retries another when one is taken. */
  async startOsd() {
    const uuid = randomUUID();
    const id = await this.ceph("ceph", ["osd", "new", uuid]);
    await this.ceph("ceph", ["osd", "crush", "add", `osd.${id}`, "1", "root=default", "host=ceph-s3"]);
    mkdirSync(join(this.dir, "osd", `ceph-${id}`), { recursive: true });
    await this.ceph("ceph-osd", ["-i", id, "--mkfs", "--osd-uuid", uuid]);
    const daemon = this.spawn(`osd.${id}`, "ceph-osd", ["-i", id]);
    await this.until(daemon, "the OSD up", async () => {
      const stat = await this.ceph("ceph", ["osd", "stat", "-f", "json"]).catch(() => "{}");
      return (JSON.parse(stat) as { num_up_osds?: number }).num_up_osds === 1 ? true : undefined;
    });
  }

  /** Ready when a request signed with the new user's keys succeeds: only our gateway knows them. */
  async startGateway(port: number, credentials: { accessKeyId: string; secretAccessKey: string }) {
    const endpoint = `http://127.0.0.1:${port}`;
    const daemon = this.spawn("client.rgw", "radosgw", ["-n", "client.rgw", "--rgw-frontends", `beast endpoint=127.0.0.1:${port}`]);
    const client = new S3Client({ endpoint, region: REGION, credentials, forcePathStyle: true, maxAttempts: 1 });
    try {
      await this.until(
        daemon,
        "the S3 gateway answering",
        async () => {
          // Bounded: whatever else holds the port may accept the connection and never answer.
          const answer = client.send(new ListBucketsCommand({}), { abortSignal: AbortSignal.timeout(2_000) });
          return await answer.then(() => true).catch(() => undefined);
        },
        // It exits (98) when the port is taken.
        /failed to bind address/,
      );
    } finally {
      client.destroy();
    }
    return endpoint;
  }
}

/** The tools read CEPH_ARGS and CEPH_CONF from the environment: the caller's must not reach them. */
function cephEnv(): NodeJS.ProcessEnv {
  const { CEPH_ARGS: _args, CEPH_CONF: _conf, ...env } = process.env;
  return env;
}

function config(dir: string, fsid: string, mon: string) {
  return `[global]
fsid = ${fsid}
mon host = ${mon}
auth cluster required = none
auth service required = none
auth client required = none
keyring = ${dir}/keyring
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon pg warn min per osd = 0
# A full disk on the test machine must not stop the monitor (it keeps only a small database there).
mon data avail crit = 0
mon data avail warn = 0
# The monitor batches map changes for a second by default: each pool the gateway needs waited for it
# (15 s to start instead of 2).
paxos propose interval = 0.05
paxos min wait = 0.01
# The OSD's boot-time CRUSH commands can race its monitor client learning the fsid ("wrong fsid", and
# the OSD exits): it is placed in the CRUSH map by the ceph command instead.
osd crush update on start = false
osd class update on start = false
osd objectstore = memstore
memstore device bytes = 536870912
ms bind ipv6 = false
ms bind msgr2 = false
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
mon cluster log file = ${dir}/log/$cluster.$channel.log
mon debug dump location = ${dir}/log/$name.tdump
crash dir = ${dir}/crash
mon data = ${dir}/mon/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
[client.rgw]
rgw data = ${dir}/rgw
rgw dns name = localhost
rgw luarocks location = ${dir}/rgw/luarocks
`;
}
