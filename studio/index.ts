/**
 * `npm run studio`: the content studio. Loopback (the default): one developer at
 * http://127.0.0.1:4323/admin/ (PORT overrides), on a clone of the project (.studio/repo).
 * `STUDIO_MODE=server`: the firm's shared studio behind its single sign-on, on a clone of the firm's
 * git remote; every variable is in studio/README.md. Either way it refuses to start with one sentence
 * saying what is missing.
 */
import { StudioRefusal } from "./git.ts";
import { settingsFromEnv } from "./settings.ts";
import { startStudio } from "./start.ts";
import { logLine } from "./logging.ts";
import { projectRoot } from "../lib/root.ts";

let studio;
try {
  const settings = settingsFromEnv(process.env, projectRoot);
  studio = await startStudio(settings, projectRoot);
  const where = settings.mode === "server" ? `server mode, signing in through ${settings.issuer.origin}` : "loopback only";
  // The start line stays a sentence for the person at a terminal; its JSON twin follows for the log's readers.
  console.log(`Content studio: ${studio.url}/admin/ (${where}; editing ${studio.repo}; Ctrl+C stops it)`);
  logLine("started", { url: studio.url, mode: settings.mode, pid: process.pid });
} catch (error) {
  if (!(error instanceof StudioRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
}

/** SIGTERM (the service manager) or Ctrl+C: no new request; a publish under way finishes (bounded, http/drain.ts); then exit 0. */
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  // A second signal (Ctrl+C after SIGTERM) does not start a second stop: the first is finishing the publish.
  if (stopping) return;
  stopping = true;
  logLine("stopping", { signal });
  void studio.stop().then(
    () => (logLine("stopped"), process.exit(0)),
    (error: Error) => (logLine("stop failed", { reason: error.message.split("\n")[0] }), process.exit(1)),
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
