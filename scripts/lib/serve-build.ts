/** Serves the current build with the project's own server (server/index.ts) for a script, on a loopback port. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Starts the server and resolves once it answers `/` (or after 5 s, whichever comes first). */
export async function serveBuild(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ["server/index.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
  for (let i = 0; i < 50 && !(await answers()); i++) await new Promise((r) => setTimeout(r, 100));
  return server;
}
