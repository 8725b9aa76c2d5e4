// Plain JavaScript on purpose: it must run, and explain itself, on a Node too old for the project's
// TypeScript scripts. npm puts node_modules/.bin first on PATH for every script, so `node` here is the
// pinned Node that npm installed (optionalDependencies node-<os>-<cpu>) when one exists for this machine.
//
// `--after-install` (the postinstall step) also repairs one npm 10 bug: when several optional packages
// declare the same bin and all but one are skipped for another OS or CPU, npm 10 links none of them
// (npm 11 links the installed one). The link is then made here, as npm 11 would have made it.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const modules = fileURLToPath(new URL("../node_modules/", import.meta.url));
const windows = process.platform === "win32";
const binLink = join(modules, ".bin", windows ? "node.cmd" : "node");

function pinnedNodeBinary() {
  const { optionalDependencies = {} } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  for (const name of Object.keys(optionalDependencies)) {
    const manifest = join(modules, name, "package.json");
    if (!existsSync(manifest)) continue;
    const { bin, os, cpu } = JSON.parse(readFileSync(manifest, "utf8"));
    const matches = (field, value) => !field || [field].flat().includes(value);
    if (bin?.node && matches(os, process.platform) && matches(cpu, process.arch)) return join(modules, name, bin.node);
  }
  return null;
}

function linkPinnedNode() {
  if (existsSync(binLink)) return false;
  const binary = pinnedNodeBinary();
  if (!binary || !existsSync(binary)) return false;
  mkdirSync(dirname(binLink), { recursive: true });
  if (windows) writeFileSync(binLink, `@"%~dp0\\${relative(dirname(binLink), binary)}" %*\r\n`);
  else {
    chmodSync(binary, 0o755);
    symlinkSync(relative(dirname(binLink), binary), binLink);
  }
  return true;
}

const afterInstall = process.argv.includes("--after-install");
if (afterInstall && linkPinnedNode()) {
  console.log("Linked node_modules/.bin/node to the pinned Node package (npm 10 leaves that link out).");
}

const [major, minor] = process.versions.node.split(".").map(Number);
const supported = major > 22 || (major === 22 && minor >= 12);
const npmNode = /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? "")?.[1];

if (!supported && existsSync(binLink) && afterInstall) {
  // This step itself started before the link existed; every later npm script runs on the pinned Node.
  console.log(
    "Every npm script here runs on the Node in node_modules/.bin; npm itself runs on an older Node, so EBADENGINE warnings above can be ignored.",
  );
} else if (!supported) {
  console.error(
    `This project needs Node 22.12 or newer; this is Node ${process.versions.node}.\n` +
      (existsSync(binLink)
        ? "node_modules/.bin/node is there but is not the one running: run the command through npm (npm start, npm test, npm run …)."
        : `npm installed no Node package for ${process.platform}-${process.arch}. Install Node 22.12+ (https://nodejs.org) and run npm install again.`),
  );
  process.exit(1);
} else if (afterInstall && npmNode && npmNode !== process.versions.node) {
  console.log(
    `Every npm script here runs on Node ${process.versions.node} from node_modules; npm itself ran on Node ${npmNode}, ` +
      "so any EBADENGINE warnings above compare packages with that Node and can be ignored.",
  );
}
