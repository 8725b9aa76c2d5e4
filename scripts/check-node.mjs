// Plain JavaScript on purpose: it must run, and explain itself, on a Node too old for the project's
// TypeScript scripts. npm puts node_modules/.bin first on PATH for every script, so `node` here is the
// pinned Node that npm installed (optionalDependencies node-<os>-<cpu>) when one exists for this machine.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [major, minor] = process.versions.node.split(".").map(Number);
const supported = major > 22 || (major === 22 && minor >= 12);
const pinned = existsSync(fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url)));
const npmNode = /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? "")?.[1];

if (!supported) {
  console.error(
    `This project needs Node 22.12 or newer; this is Node ${process.versions.node}.\n` +
      (pinned
        ? "node_modules/.bin/node is there but is not the one running: run the command through npm (npm start, npm test, npm run …)."
        : `npm found no Node package for ${process.platform}-${process.arch} on the registry. Install Node 22.12+ (https://nodejs.org) and run npm install again.`),
  );
  process.exit(1);
}
if (process.argv.includes("--after-install") && npmNode && npmNode !== process.versions.node) {
  console.log(
    `Every npm script here runs on Node ${process.versions.node} from node_modules; npm itself ran on Node ${npmNode}, ` +
      "so any EBADENGINE warnings above compare packages with that Node and can be ignored.",
  );
}
