/**
 * nginx over a site in a folder only its owner can enter, as a checkout made by `mktemp -d` or under
 * /root is: every page answers as it does from dist/. As root, nginx's workers drop to nobody, who
 * cannot enter such a folder (they answered 403 before testing/nginx-local.ts served them a copy);
 * they must still run as nobody, never as root. As an ordinary user the workers are that user.
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNginx, type LocalNginx } from "../../testing/nginx-local.ts";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { dist, requireBuild, send } from "./support.ts";

const cause = available("nginx") ? undefined : missingLine("nginx");
if (cause && !isCI()) console.log(cause);
const isRoot = process.getuid?.() === 0;

requireBuild();
let owner: string;
let site: string;
let nginx: LocalNginx;

/** Everything inside `folder` readable by its owner only, as under `umask 077`. */
function ownerOnly(folder: string) {
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
  }
  chmodSync(folder, 0o700);
}

/** The user ids of the processes whose parent is `pid` (nginx's workers), from /proc. */
function childUids(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const status = readFileSync(`/proc/${name}/status`, "utf8");
        const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
        return ppid === pid ? [Number(/^Uid:\s+(\d+)/m.exec(status)?.[1])] : [];
      } catch {
        return []; // the process ended while we read
      }
    });
}

beforeAll(async () => {
  if (cause) return;
  owner = mkdtempSync(join(tmpdir(), "site-private-"));
  site = join(owner, "checkout", "dist");
  cpSync(dist, site, { recursive: true });
  ownerOnly(owner);
  nginx = await startNginx({ root: site, workers: 1 });
});
afterAll(async () => {
  await nginx?.stop();
  if (owner) rmSync(owner, { recursive: true, force: true });
});

describe.skipIf(cause && !isCI())("nginx over a checkout only its owner can enter", () => {
  it("the folder is really private: no one but its owner may enter it", () => {
    expect(statSync(owner).mode & 0o077).toBe(0);
    expect(statSync(join(site, "index.html")).mode & 0o077).toBe(0);
  });

  it.each(["/", "/privacy-policy", "/cookie-policy"])("%s answers 200 with the page from the private folder", async (path) => {
    const answer = await send(nginx.origin, path);
    expect(answer.status).toBe(200);
    const file = path === "/" ? "index.html" : `${path.slice(1)}.html`;
    expect(answer.body.toString("utf8")).toBe(readFileSync(join(site, file), "utf8"));
  });

  it("an unknown path answers 404 with the 404 page", async () => {
    const answer = await send(nginx.origin, "/no-such-page");
    expect(answer.status).toBe(404);
    expect(answer.body.toString("utf8")).toBe(readFileSync(join(site, "404.html"), "utf8"));
  });

  it("a hashed asset answers 200 with its bytes", async () => {
    const name = readdirSync(join(site, "_astro")).find((file) => file.endsWith(".js"));
    const answer = await send(nginx.origin, `/_astro/${name}`);
    expect(answer.status).toBe(200);
    expect(answer.body.equals(readFileSync(join(site, "_astro", String(name))))).toBe(true);
  });

  it("the workers never run as root: as root they are nobody over a copy open to everyone; otherwise this user over the folder itself", () => {
    const uids = childUids(nginx.pid);
    expect(uids.length).toBeGreaterThan(0);
    if (isRoot) {
      expect(uids.every((uid) => uid !== 0)).toBe(true);
      expect(nginx.root.startsWith(site)).toBe(false);
      expect(statSync(nginx.root).mode & 0o005).toBe(0o005);
    } else {
      expect(uids.every((uid) => uid === process.getuid?.())).toBe(true);
      expect(nginx.root).toBe(site);
    }
  });
});
