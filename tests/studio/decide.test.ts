/**
 * A principal's decisions as the studio records them (studio/workflow/decide.ts), on a throw-away clone
 * with real preview builds: the roster's exception to separation of duties used and recorded, and a
 * rejection with its comment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLedger } from "../../lib/approval/ledger.ts";
import { parseRoster } from "../../lib/approval/roster.ts";
import { git, prepareClone } from "../../studio/git.ts";
import { SessionStore } from "../../studio/auth/sessions.ts";
import { throwawayProject } from "../../testing/studio/trial.ts";
import { decide } from "../../studio/workflow/decide.ts";
import { findEntry, setStatus } from "../../studio/workflow/entries.ts";
import { readEvents } from "../../studio/workflow/log.ts";
import { PAT } from "../fixtures/roster/entries.ts";

const REASON = "The firm's only principal; reviewed by the CCO on 2026-11-02";
let trial: ReturnType<typeof throwawayProject>;
let repo = "";
const sam = {
  issuer: "https://login.example",
  subject: "sam",
  email: "sam.principal@example.com",
  name: "Sam Principal",
  role: "principal" as const,
};
const roster = parseRoster(
  JSON.stringify([{ ...PAT, email: sam.email, name: "Sam Principal", crd: "1000002", selfApprovalException: REASON }]),
);
const session = new SessionStore({ idleMs: 60_000, maxMs: 60_000 }).create({ ...sam, authTime: Date.now(), confirmed: true });
const context = () => ({ root: trial.project, repo, session, freshMs: 10 * 60_000, roster: () => roster });

/** An entry in review whose one commit Sam wrote, as Decap's save makes it. */
function entryBySam(slug: string, file: string, change: (text: string) => string) {
  git(repo, "checkout", "--quiet", "-B", `cms/landing/${slug}`, "main");
  writeFileSync(join(repo, file), change(readFileSync(join(repo, file), "utf8")));
  git(repo, "-c", `user.name=${sam.name}`, "-c", `user.email=${sam.email}`, "commit", "--quiet", "-am", `Update ${slug}`);
  git(repo, "checkout", "--quiet", "main");
  setStatus(repo, `cms/landing/${slug}`, "pending_review");
  return findEntry(repo, "landing", slug)!;
}

beforeAll(() => {
  trial = throwawayProject();
  repo = prepareClone(trial.project);
});
afterAll(() => trial?.remove());

describe("a principal's decisions", () => {
  it("records the roster's exception when the firm's only principal approves their own change", async () => {
    const entry = entryBySam("hero", "src/content/landing/hero.yaml", (t) =>
      t.replace(/^headline: .*$/m, "headline: Settlement for institutions"),
    );
    expect(await decide(context(), entry, "approve", { head: entry.head, comment: "" })).toBe(
      "Approved Landing page: Hero as Sam Principal: it is Ready, and can be published.",
    );
    const ledger = parseLedger(git(repo, "show", "cms/landing/hero:approvals/ledger.json"));
    expect(ledger.pages["/"]).toMatchObject({
      approvedBy: "Sam Principal, Series 24, CRD 1000002",
      selfApprovalException: REASON,
      commit: entry.head,
      principal: { email: sam.email, crd: "1000002" },
    });
    expect(readEvents(repo).at(-1)).toMatchObject({
      event: "approved",
      separation: "exception",
      selfApprovalException: REASON,
      authors: [sam.email],
    });
    expect(findEntry(repo, "landing", "hero")?.status).toBe("pending_publish");
  }, 180_000);

  it("rejects with a comment, and sends the entry back to the editor as a draft", async () => {
    const entry = entryBySam("popup", "src/content/landing/popup.yaml", (t) => t.replace("get in touch", "write to us"));
    await expect(decide(context(), entry, "reject", { head: entry.head, comment: "" })).rejects.toThrow(/^Say what should change/);
    expect(await decide(context(), entry, "reject", { head: entry.head, comment: "We keep “get in touch”." })).toBe(
      "Rejected Landing page: Under Development popup: the editor sees your comment.",
    );
    expect(readEvents(repo).at(-1)).toMatchObject({
      event: "rejected",
      comment: "We keep “get in touch”.",
      commit: entry.head,
      actor: { name: "Sam Principal" },
    });
    expect(findEntry(repo, "landing", "popup")?.status).toBe("draft");
  });
});
