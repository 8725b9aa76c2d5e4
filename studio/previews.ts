/**
 * "View Preview" in an entry, in the loopback studio: the preview build of the entry's branch (drafts
 * marked "Draft: not approved for publication"), served by the site's own server on a loopback port of
 * its own, one per commit. Decap asks for it through the git API's `getDeployPreview`; the studio
 * answers it itself. (The server mode opens the entry's review instead: a loopback port is not
 * reachable from the team's browsers.)
 */
import type { Server } from "node:http";
import { createSiteServer } from "../server/app.ts";
import { git } from "./git.ts";
import { listenOnLoopback } from "../lib/ports.ts";
import { buildOf } from "./workflow/builds.ts";
import { entryBranch } from "./workflow/entries.ts";

export function branchPreviews(root: string, repo: string) {
  const servers = new Map<string, Promise<{ origin: string; server: Server }>>();
  const serve = async (commit: string) => {
    let running = servers.get(commit);
    if (!running) {
      running = (async () => {
        // The branch's own build: View Preview shows the draft marks of its own ledger.
        const { site } = await buildOf(root, repo, commit, { exact: true });
        const server: Server = createSiteServer({ root: site });
        return { origin: `http://127.0.0.1:${await listenOnLoopback(server)}`, server };
      })();
      running.catch(() => servers.delete(commit));
      servers.set(commit, running);
    }
    return (await running).origin;
  };
  return {
    /** Stops every preview server (with the studio: left open, they kept a test's or a script's process alive). */
    async close(): Promise<void> {
      const all = await Promise.allSettled(servers.values());
      servers.clear();
      for (const made of all) {
        if (made.status !== "fulfilled") continue;
        made.value.server.closeAllConnections();
        await new Promise((done) => made.value.server.close(done));
      }
    },
    /** Decap's deploy preview of an entry: null while it has no branch (nothing unpublished to show). */
    async deployPreview(params: Record<string, unknown>): Promise<{ url: string; status: string } | null> {
      let head: string;
      try {
        head = git(repo, "rev-parse", "--verify", "--quiet", `refs/heads/${entryBranch(params.collection, params.slug)}`);
      } catch {
        return null;
      }
      return { url: await serve(head), status: "SUCCESS" };
    },
  };
}
