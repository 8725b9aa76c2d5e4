import { spawn } from "node:child_process";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromeArgs, findChrome } from "../tests/support/chrome.ts";
const server = spawn("node", ["server/index.ts"], { cwd: "/work/main", env: { ...process.env, PORT: "4603", HOST: "127.0.0.1" }, stdio: "ignore" });
await new Promise((r) => setTimeout(r, 800));
const chrome = await chromeLauncher.launch({ chromePath: findChrome(), chromeFlags: ["--headless=new", ...chromeArgs] });
for (const path of ["/cookie-policy", "/", "/cookie-policy", "/"]) {
  const r = await lighthouse(`http://127.0.0.1:4603${path}`, { port: chrome.port, onlyCategories: ["performance"] });
  const a = r!.lhr.audits;
  const reqs = ((a["network-requests"].details as any).items as any[]).map((i) => `${Math.round(i.networkRequestTime)} ${i.priority} ${i.url.replace("http://127.0.0.1:4603", "").slice(0, 22)}`);
  const t = ((a["metrics"] as any).details?.items?.[0]) ?? {};
  console.log(`${path} LCP ${Math.round(a["largest-contentful-paint"].numericValue)} FCP ${Math.round(a["first-contentful-paint"].numericValue)} | obs FCP ${t.observedFirstContentfulPaint} | ${reqs.slice(1, 6).join(" ; ")}`);
}
await chrome.kill(); server.kill();
