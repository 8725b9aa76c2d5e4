/**
 * Ports for programs that cannot listen on port 0 themselves (nginx, wrangler): the OS names a free
 * port, and if another process takes it before the program binds it (test files start servers in
 * parallel), the program is started again on a new one. Our own Node servers listen on port 0 instead.
 */
import { createServer } from "node:net";

/** A port the OS considers free right now on 127.0.0.1. */
export function osFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Raised by a start function when its program could not bind the port it was given. */
export class PortTakenError extends Error {}

/**
 * Starts a program on a free port, again on another port when it reports the port taken (at most
 * `attempts` times). A fixed `port` is tried once: the caller asked for that one.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, options: { port?: number; attempts?: number } = {}): Promise<T> {
  if (options.port !== undefined) return start(options.port);
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await osFreePort());
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= attempts) throw error;
    }
  }
}

/** Starts a server of ours on 127.0.0.1, on a port the OS picks at bind time (nobody can take it first); resolves to the port. */
export function listenOnLoopback(server: {
  once(event: "error", listener: (error: Error) => void): unknown;
  listen(port: number, host: string, done: () => void): unknown;
  address(): unknown;
}): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}

/** A server of ours listening again on 127.0.0.1 at the port it had (a test's outage of a service, ended). */
export function listenAgain(
  server: {
    once(event: "error", listener: (error: Error) => void): unknown;
    off(event: "error", listener: (error: Error) => void): unknown;
  } & {
    listen(port: number, host: string, done: () => void): unknown;
  },
  port: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => (server.off("error", reject), resolve()));
  });
}
