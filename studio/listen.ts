import type { Server } from "node:http";

/** Listens on 127.0.0.1 only, on `port` (0: one the OS picks); resolves to the port. */
export function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new Error(`Port ${port} is in use: run PORT=<another port> npm run studio`) : error),
    );
    server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}
