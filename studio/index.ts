/**
 * `npm run studio`: the content studio at http://127.0.0.1:4323/admin/ (PORT overrides), on loopback
 * only. Decap CMS edits the content files in the editorial workflow (each edit a `cms/…` branch:
 * Draft, In review, Ready); decap-server works on a clone of its own (.studio/repo).
 */
import { listen } from "./listen.ts";
import { preflight, prepareClone, StudioRefusal } from "./git.ts";
import { startDecapServer } from "./decap-server.ts";
import { createStudioServer } from "./server.ts";
import { publishRules } from "./publish.ts";
import { projectRoot } from "../scripts/lib/root.ts";

try {
  preflight(projectRoot);
} catch (error) {
  if (error instanceof StudioRefusal) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const repo = prepareClone(projectRoot);
const decap = await startDecapServer(repo);
const server = createStudioServer({ root: projectRoot, repo, decapUrl: decap.url, ...publishRules(projectRoot, repo) });
const port = await listen(server, process.env.PORT === undefined ? 4323 : Number(process.env.PORT));
console.log(`Content studio: http://127.0.0.1:${port}/admin/ (editing ${repo}; Ctrl+C stops it)`);

const stop = () => {
  server.close();
  void decap.stop().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
