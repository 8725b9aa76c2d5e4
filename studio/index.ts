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
import { projectRoot } from "../lib/root.ts";

let studio;
try {
  const settings = settingsFromEnv(process.env, projectRoot);
  studio = await startStudio(settings, projectRoot);
  const where = settings.mode === "server" ? `server mode, signing in through ${settings.issuer.origin}` : "loopback only";
  console.log(`Content studio: ${studio.url}/admin/ (${where}; editing ${studio.repo}; Ctrl+C stops it)`);
} catch (error) {
  if (!(error instanceof StudioRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
}

const stop = () => void studio.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
