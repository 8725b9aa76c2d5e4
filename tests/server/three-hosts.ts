/**
 * One build as each of the three servers answers it: our server (its dist/), nginx with that build's own
 * header include, and Cloudflare's runtime (`wrangler pages dev`) over its dist-static/. For builds other
 * than the checkout's: a fixture copy of the project (withdrawn.test.ts) and the git host's main after a
 * publish (tests/studio/disclosures.test.ts). A withdrawn disclosure's address must answer alike on all
 * three: its notice with 200, `noindex`, every policy header (decision 0030).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { startNginx } from "../../testing/nginx-local.ts";
import { startWrangler } from "../../testing/wrangler-local.ts";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { loadSecurityHeaders } from "../../server/app.ts";
import { CACHE_REVALIDATE, parseHeadersFile } from "../../src/shared/security-headers.ts";
import { send, startServer, type Answer } from "./support.ts";

export interface Host {
  name: "ours" | "nginx" | "cloudflare";
  origin: string;
  /** The policy headers it must send on every answer (ours: the plain-HTTP set, without HSTS). */
  policy: Record<string, string>;
}

export interface ThreeHosts {
  hosts: Host[];
  /** Hosts that could not start here, with why (a failure under CI=true). */
  missing: string[];
  stop(): Promise<void>;
}

/** Starts the three servers over `project`'s build (`dist/`, `dist-static/`, `deploy/nginx/generated/`). */
export async function serveOnThreeHosts(project: string): Promise<ThreeHosts> {
  const dist = join(project, "dist");
  const published = parseHeadersFile(readFileSync(join(dist, "_headers"), "utf8"));
  const stops: Array<() => Promise<void>> = [];
  const hosts: Host[] = [];
  const missing: string[] = [];
  const ours = await startServer({ root: dist });
  stops.push(() => ours.close());
  hosts.push({ name: "ours", origin: ours.origin, policy: loadSecurityHeaders(dist) });
  if (available("nginx")) {
    const nginx = await startNginx({ root: dist, headers: join(project, "deploy/nginx/generated/security-headers.conf") });
    stops.push(() => nginx.stop());
    hosts.push({ name: "nginx", origin: nginx.origin, policy: published });
  } else missing.push(missingLine("nginx"));
  try {
    const edge = await startWrangler({ root: join(project, "dist-static") });
    stops.push(() => edge.stop());
    hosts.push({ name: "cloudflare", origin: edge.origin, policy: published });
  } catch (error) {
    missing.push(`Cloudflare's runtime (wrangler pages dev) did not start: ${String(error).split("\n")[0]}`);
  }
  if (missing.length && isCI()) {
    await Promise.all(stops.map((stop) => stop()));
    throw new Error(missing.join("\n"));
  }
  for (const line of missing) console.log(`three hosts: ${line}`);
  return { hosts, missing, stop: async () => void (await Promise.all(stops.map((stop) => stop()))) };
}

/** Every policy header exactly, one Cache-Control that revalidates, and nothing that widens the policy. */
export function expectPolicy(answer: Answer, host: Host) {
  for (const [name, value] of Object.entries(host.policy)) expect(answer.headers[name.toLowerCase()], `${host.name}: ${name}`).toBe(value);
  expect(answer.headers["cache-control"], `${host.name}: Cache-Control`).toBe(CACHE_REVALIDATE);
  expect(answer.headers["access-control-allow-origin"], `${host.name}: Access-Control-Allow-Origin`).toBeUndefined();
}

/**
 * `path` answers the withdrawn disclosure's notice on every host: 200 (no host can answer 410 alike:
 * decision 0030), the built notice's bytes, `noindex`, the day, the way to the index; and neither the
 * index nor the sitemap names it.
 */
export async function expectWithdrawnEverywhere(
  project: string,
  hosts: Host[],
  path: string,
  { title, day }: { title: string; day: string },
) {
  const notice = readFileSync(join(project, "dist", `${path}.html`));
  const html = notice.toString("utf8");
  expect(html).toContain(`This disclosure was withdrawn on ${day}.`);
  expect(html).toContain('<meta name="robots" content="noindex">');
  expect(html).not.toContain('rel="canonical"');
  expect(html).toContain(`<h1 class="text-3xl font-semibold tracking-tight md:text-4xl">${title}</h1>`);
  expect(html).toMatch(/<a href="\/disclosures"[^>]*>See the disclosures in force<\/a>/);
  for (const host of hosts) {
    const answer = await send(host.origin, path);
    expect(answer.status, `${host.name}: ${path}`).toBe(200);
    expect(answer.headers["content-type"], host.name).toMatch(/^text\/html/);
    expect(answer.body.equals(notice), `${host.name}: the notice's bytes`).toBe(true);
    expectPolicy(answer, host);
    for (const other of ["/disclosures", "/sitemap.xml"]) {
      const listing = await send(host.origin, other);
      expect(listing.status, `${host.name}: ${other}`).toBe(200);
      expect(listing.body.toString("utf8"), `${host.name}: ${other} names ${path}`).not.toContain(`${path}"`);
      expect(listing.body.toString("utf8"), `${host.name}: ${other} names ${path}`).not.toContain(`${path}<`);
    }
  }
}
