/**
 * The records know the moment (issue 56): a capture of a studio publish records when it went live, who
 * published it, the approved head it merged and the scheduled moment (read from the publish commit's
 * trailers), and the examiner's export takes "in force from" from the moment it went live.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { publishedAt } from "../../lib/records/approvals.ts";
import { selectForExport } from "../../lib/records/export.ts";

const repo = mkdtempSync(join(tmpdir(), "published-at-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const git = (args: string[], date = "2027-03-01T14:30:02Z") =>
  execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Pat Example",
      GIT_AUTHOR_EMAIL: "pat@example.com",
      GIT_COMMITTER_NAME: "Studio",
      GIT_COMMITTER_EMAIL: "studio@example.com",
      GIT_COMMITTER_DATE: date,
      GIT_AUTHOR_DATE: date,
    },
  }).trim();

describe("a capture of a studio publish", () => {
  git(["init", "--quiet", "--initial-branch=main"]);
  const tree = git(["write-tree"]);
  const base = git(["commit-tree", tree, "-m", "Start"]);
  const approved = git(["commit-tree", tree, "-p", base, "-m", "Approve /\n\nStudio-Event: approval"]);
  const scheduled = git([
    "commit-tree",
    tree,
    "-p",
    base,
    "-p",
    approved,
    "-m",
    "Publish Landing page: Hero\n\nPublished at the moment scheduled by Pat Example.\n\nStudio-Event: publish\nStudio-Scheduled-At: 2027-03-01T14:30:00.000Z America/New_York",
  ]);
  const byHand = git(
    ["commit-tree", tree, "-p", base, "-p", approved, "-m", "Publish Landing page: Hero\n\nStudio-Event: publish"],
    "2027-03-02T10:00:00-05:00",
  );

  it("records when it went live, who published it, the approval it carried out and the scheduled moment", () => {
    expect(publishedAt(repo, scheduled)).toEqual({
      wentLive: "2027-03-01T14:30:02.000Z",
      by: "Pat Example",
      approval: approved,
      scheduledAt: "2027-03-01T14:30:00.000Z",
      timeZone: "America/New_York",
    });
    expect(publishedAt(repo, byHand)).toEqual({ wentLive: "2027-03-02T15:00:00.000Z", by: "Pat Example", approval: approved });
    // Any other commit is no publish.
    expect([publishedAt(repo, approved), publishedAt(repo, base), publishedAt(repo, "f".repeat(40))]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("is in force from the moment it went live, in the export", () => {
    const entry = (time: string, kind: string, wentLive?: string) =>
      ({
        name: time,
        complete: true,
        time,
        kind,
        pages: [],
        ...(wentLive ? { published: { wentLive, by: "Pat Example", approval: approved } } : {}),
      }) as unknown as CaptureEntry;
    const entries = [
      entry("2027-03-01T06:17:00.000Z", "scheduled"),
      entry("2027-03-01T14:33:40.000Z", "deploy", "2027-03-01T14:30:02.000Z"),
      // A daily capture of the same commit is in force from its own time.
      entry("2027-03-02T06:17:00.000Z", "scheduled", "2027-03-01T14:30:02.000Z"),
    ];
    const { captures } = selectForExport(entries, { dates: ["2027-03-01"] });
    expect(captures.map((c) => [c.inForceFrom, c.inForceUntil])).toEqual([
      ["2027-03-01T06:17:00.000Z", "2027-03-01T14:30:02.000Z"],
      ["2027-03-01T14:30:02.000Z", "2027-03-02T06:17:00.000Z"],
    ]);
  });
});
