/**
 * The processes the WebKit suite runs: Xvfb (MiniBrowser has no headless mode) and WebKitWebDriver, each
 * started on what the OS gives (a free display, a free port) and stopped with everything they started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { until } from "./engine.ts";

/** Signals a child, or its whole process group when it leads one (the driver, with MiniBrowser and WebKit's helper processes). */
export function signal(child: ChildProcess, name: NodeJS.Signals, group: boolean) {
  try {
    if (group && child.pid) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // Already gone.
  }
}

export function stopProcess(child: ChildProcess | undefined, group = false): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    if (child && group) signal(child, "SIGKILL", true);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const hard = setTimeout(() => signal(child, "SIGKILL", group), 3_000);
    child.once("exit", () => {
      clearTimeout(hard);
      // What the driver started goes with it, even when a failed session left it running.
      if (group) signal(child, "SIGKILL", true);
      resolve();
    });
    signal(child, "SIGTERM", group);
  });
}

/** Starts Xvfb on the first free display; it writes the display number to fd 3 once it accepts clients. */
export async function startXvfb(binary: string): Promise<{ process: ChildProcess; display: string }> {
  const xvfb = spawn(binary, ["-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  let stderr = "";
  xvfb.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display within 10 s: ${stderr}`)), 10_000);
    xvfb.stdio[3]!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    xvfb.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${stderr}`));
    });
  });
  return { process: xvfb, display };
}

/**
 * The TCP ports a process listens on at 127.0.0.1 (Linux: its socket descriptors, matched in the
 * kernel's table for its network namespace).
 */
function loopbackListenPorts(pid: number): number[] {
  const sockets = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) sockets.add(inode);
    } catch {
      // Closed while we looked.
    }
  }
  const ports: number[] = [];
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, "utf8").split("\n").slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
    const [address, port] = local?.split(":") ?? [];
    if (state === "0A" && address === "0100007F" && port && inode && sockets.has(inode)) ports.push(parseInt(port, 16));
  }
  return ports;
}

/**
 * Starts WebKitWebDriver on a port the OS picks (--port=0; the driver does not print it, so it is read
 * from the sockets the driver's own process listens on: a port some other process holds can never be
 * mistaken for the driver's). In its own process group, so MiniBrowser and WebKit's helper processes
 * can be stopped with it. If it cannot listen at all, it is started again (at most three times).
 */
export async function startDriver(binary: string, env: NodeJS.ProcessEnv, started: (child: ChildProcess) => void): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    let log = "";
    const child = spawn(binary, ["--port=0"], { detached: true, stdio: ["ignore", "pipe", "pipe"], env });
    started(child);
    child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const port = await until(
      "WebKitWebDriver to listen",
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) return -1;
        const [port] = child.pid ? loopbackListenPorts(child.pid) : [];
        if (port === undefined) return undefined;
        // Listening is not yet answering: ask it, now that the port is known to be its own.
        const status = await fetch(`http://127.0.0.1:${port}/status`).catch(() => null);
        return status?.ok ? port : undefined;
      },
      10_000,
    );
    if (port > 0) return port;
    if (!/Unable to listen/.test(log) || attempt >= 3) throw new Error(`WebKitWebDriver exited (${child.exitCode}): ${log}`);
  }
}
