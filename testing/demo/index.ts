/**
 * `npm run studio:demo`: the team studio, tried on this machine in one command. A local OpenID
 * provider with fictional people, a git host whose main starts as this checkout's main (with branch
 * protection: only the studio changes main), and the studio in server mode between them. Everything
 * listens on 127.0.0.1; everything is made afresh in .studio/demo/ at each start. Ctrl+C stops it.
 *
 * `npm run records:demo` (`--records`): the same, with a records store in every state (records.ts: real
 * captures timestamped by a local Time Stamp Authority, derived days in March 2026, one drifted, one
 * altered, one unfinished), for the compliance officer to sign in to.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../lib/root.ts";
import { StudioRefusal } from "../../studio/git.ts";
import { formProviderFetch } from "../form-provider.ts";
import { buildRecordsDemo } from "./records.ts";
import { startTeamStudio } from "./team.ts";
import { startDemoTsa, type DemoTsa } from "./tsa.ts";

// The demo's terminal shows its people and their passwords: the request log would bury them (STUDIO_LOG=on shows it).
process.env.STUDIO_LOG ??= "off";
const withRecords = process.argv.includes("--records");
const folder = join(projectRoot, ".studio", withRecords ? "records-demo" : "demo");
let tsa: DemoTsa | undefined;
try {
  if (withRecords) {
    rmSync(folder, { recursive: true, force: true });
    tsa = await startDemoTsa({ folder: join(folder, "tsa") });
    const demo = await buildRecordsDemo({
      project: projectRoot,
      dist: join(projectRoot, "dist"),
      folder,
      tsa,
      say: (t) => console.log(t),
      thirdParty: formProviderFetch,
    });
    // The studio reads its records from here (studio/records/records.ts); the tokens are checked against the demo TSA's CA.
    process.env.ARCHIVE_STORE = demo.store;
    process.env.ARCHIVE_TSA_CA = tsa.caFile;
    // The studio's WACZ exports are signed with the demo's own key and timestamped by its TSA, as its captures' are.
    process.env.ARCHIVE_WACZ_KEY = demo.waczKeyFile;
    process.env.ARCHIVE_TSA_URL = tsa.url;
  }
  const team = await startTeamStudio({
    project: projectRoot,
    folder: join(folder, "team"),
    port: process.env.PORT === undefined ? 4324 : Number(process.env.PORT),
  });
  const width = Math.max(...team.idp.users.map((u) => u.email.length));
  console.log(`Content studio (server mode, demo): ${team.url}/admin/${withRecords ? `\nRecords: ${team.url}/admin/records (store ${process.env.ARCHIVE_STORE})` : ""}
Sign in as one of these fictional people (passwords are new at every start):
${team.idp.users.map((u) => `  ${u.email.padEnd(width)}  ${u.password}  ${u.name}, ${u.groups.join(", ") || "in no studio group (refused)"}`).join("\n")}
Principals on the roster (approvals/roster.json) approve; Lee Former's roster entry has ended; compliance and principals open the records.
The firm's repository: ${team.host.bare} (git clone ${team.host.urlFor("developer")}). Ctrl+C stops the demo.`);
  const stop = () => void Promise.all([team.stop(), tsa?.stop()]).then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  await tsa?.stop();
  if (!(error instanceof StudioRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
}
