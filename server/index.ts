/**
 * `npm start`: serves the production build in dist/ at http://localhost:4321 (PORT and HOST override).
 * Production traffic belongs on a CDN or nginx (see deploy/); this server is for local use and CI.
 */
import { createSiteServer } from "./app.ts";
import { fromRoot } from "../lib/root.ts";

const root = fromRoot(process.env.SITE_OUT_DIR ?? "dist");
const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? "localhost";

function die(message: string): never {
  console.error(`server: ${message}`);
  process.exit(1);
}

if (!Number.isInteger(port) || port < 0 || port > 65535) die(`PORT must be a number from 0 to 65535, got "${process.env.PORT}"`);
let server;
try {
  server = createSiteServer({ root });
} catch (error) {
  die(error instanceof Error ? error.message : String(error));
}
server.on("error", (error: NodeJS.ErrnoException) =>
  die(error.code === "EADDRINUSE" ? `port ${port} on ${host} is already in use; set PORT to another port` : error.message),
);

server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === "object" && address ? address.port : port;
  console.log(`Serving dist/ at http://${host.includes(":") ? `[${host}]` : host}:${shown}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 3_000).unref();
  });
}
