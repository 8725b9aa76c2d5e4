/**
 * `npm run studio:demo`: the team studio, tried on this machine in one command. A local OpenID
 * provider with fictional people, a git host whose main starts as this checkout's main (with branch
 * protection: only the studio changes main), and the studio in server mode between them. Everything
 * listens on 127.0.0.1; everything is made afresh in .studio/demo/ at each start. Ctrl+C stops it.
 */
import { join } from "node:path";
import { projectRoot } from "../../lib/root.ts";
import { StudioRefusal } from "../git.ts";
import { startTeamStudio } from "./team.ts";

try {
  const team = await startTeamStudio({
    project: projectRoot,
    folder: join(projectRoot, ".studio", "demo"),
    port: process.env.PORT === undefined ? 4324 : Number(process.env.PORT),
  });
  const width = Math.max(...team.idp.users.map((u) => u.email.length));
  console.log(`Content studio (server mode, demo): ${team.url}/admin/
Sign in as one of these fictional people (passwords are new at every start):
${team.idp.users.map((u) => `  ${u.email.padEnd(width)}  ${u.password}  ${u.name}, ${u.groups.join(", ") || "in no studio group (refused)"}`).join("\n")}
Principals on the roster (approvals/roster.json) approve; Lee Former's roster entry has ended.
The firm's repository: ${team.host.bare} (git clone ${team.host.urlFor("developer")}). Ctrl+C stops the demo.`);
  const stop = () => void team.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  if (!(error instanceof StudioRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
}
