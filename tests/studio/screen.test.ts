/** Which git actions the studio passes on to decap-server, by role (studio/decap/screen.ts): a table of what Decap sends and what it must not. */
import { describe, expect, it } from "vitest";
import type { Actor } from "../../studio/auth/sessions.ts";
import { screenAction } from "../../studio/decap/screen.ts";

const editor: Actor = {
  issuer: "https://login.example",
  subject: "e",
  email: "erin@example.com",
  name: "Erin",
  role: "editor",
  authTime: 0,
};
const developer: Actor = { ...editor, role: "principal", local: true };
const hero = { path: "src/content/landing/hero.yaml", slug: "hero", raw: "headline: x\n" };
const save = (options: Record<string, unknown>, dataFiles: unknown[] = [hero], extra: Record<string, unknown> = {}) => ({
  branch: "main",
  dataFiles,
  assets: [],
  options: { collectionName: "landing", commitMessage: "Update", useWorkflow: true, status: "draft", ...options },
  ...extra,
});

describe("the role screen", () => {
  it.each([
    // Everything Decap's editorial workflow sends while an editor works.
    ["info", {}],
    ["entriesByFolder", { branch: "main", folder: "src/content/legal", extension: "md", depth: 1 }],
    ["entriesByFiles", { branch: "main", files: [{ path: "src/content/landing/hero.yaml" }] }],
    ["getEntry", { branch: "main", path: "src/content/legal/privacy-policy.md" }],
    ["unpublishedEntries", { branch: "main" }],
    ["unpublishedEntry", { branch: "main", collection: "landing", slug: "hero" }],
    ["persistEntry", save({})],
    ["updateUnpublishedEntryStatus", { branch: "main", collection: "landing", slug: "hero", newStatus: "pending_review" }],
    ["updateUnpublishedEntryStatus", { branch: "main", collection: "landing", slug: "hero", newStatus: "draft" }],
    ["deleteUnpublishedEntry", { branch: "main", collection: "landing", slug: "hero" }],
    ["publishUnpublishedEntry", { branch: "main", collection: "landing", slug: "hero" }],
    ["getDeployPreview", { branch: "main", collection: "landing", slug: "hero" }],
    ["getMedia", { branch: "main", mediaFolder: "studio/media-unused" }],
    // A new disclosure: its address and the repository are judged next (studio/workflow/new-pages.ts).
    [
      "persistEntry",
      save({ collectionName: "disclosures", newEntry: true }, [
        { path: "src/content/disclosures/fee-schedule.md", slug: "fee-schedule", raw: "---\ntitle: Fee Schedule\n---\n" },
      ]),
    ],
  ])("lets an editor send %s", (action, params) => {
    expect(screenAction(action, params, editor)).toBeNull();
  });

  it.each([
    [
      "saving straight to main (useWorkflow: false)",
      "persistEntry",
      save({ useWorkflow: false }),
      /^Saving straight to main is not allowed/,
    ],
    [
      "a save that names another branch",
      "persistEntry",
      save({}, [hero], { branch: "cms/landing/hero" }),
      /^Every action starts from main/,
    ],
    [
      "a read of another branch",
      "getEntry",
      { branch: "release", path: "src/content/landing/hero.yaml" },
      /^Every action starts from main/,
    ],
    ["a save of a file outside the content", "persistEntry", save({}, [{ ...hero, path: "package.json" }]), /outside the content folders/],
    [
      "a save that climbs out of the content",
      "persistEntry",
      save({}, [{ ...hero, path: "src/content/../../package.json" }]),
      /outside the content folders/,
    ],
    ["a read outside the content", "getEntry", { branch: "main", path: "src/config/site.ts" }, /outside the content folders/],
    [
      "a read of the approval on an entry's branch (Decap is never told of it)",
      "unpublishedEntryMediaFile",
      { branch: "main", collection: "landing", slug: "hero", path: "approvals/ledger.json" },
      /outside the content folders/,
    ],
    [
      "a save of another entry's file",
      "persistEntry",
      save({}, [{ ...hero, path: "src/content/landing/popup.yaml" }]),
      /only the entry's own content file/,
    ],
    [
      "a save moving the file",
      "persistEntry",
      save({}, [{ ...hero, newPath: "src/content/landing/x.yaml" }]),
      /only the entry's own content file/,
    ],
    [
      "an upload with a save",
      "persistEntry",
      save({}, [hero], { assets: [{ path: "src/content/a.png", content: "", encoding: "base64" }] }),
      /^Uploads are not part/,
    ],
    ["an upload", "persistMedia", { branch: "main", asset: {} }, /does not pass on "persistMedia"/],
    ["deleting files", "deleteFiles", { branch: "main", paths: ["src/content/legal/privacy-policy.md"] }, /does not pass on "deleteFiles"/],
    [
      "setting Ready",
      "updateUnpublishedEntryStatus",
      { branch: "main", collection: "landing", slug: "hero", newStatus: "pending_publish" },
      /^Only a principal's approval sets an entry to Ready/,
    ],
    ["an action decap-server does not know", "runShell", {}, /does not pass on "runShell"/],
    [
      "a new disclosure whose title gives no address of the rule",
      "persistEntry",
      save({ collectionName: "disclosures" }, [{ path: "src/content/disclosures/fee_schedule.md", slug: "fee_schedule", raw: "" }]),
      /^The address \/fee_schedule, made from the title, may have only lower-case letters, digits and single hyphens: change the title\.$/,
    ],
    [
      "a document's save holding a script, with the build's own sentence",
      "persistEntry",
      save({ collectionName: "disclosures" }, [
        {
          path: "src/content/disclosures/business-continuity.md",
          slug: "business-continuity",
          raw: "---\ntitle: Business Continuity Plan Summary\n---\n\nContact us any time.<script>document.title=1</script>\n",
        },
      ]),
      /^src\/content\/disclosures\/business-continuity\.md, line 5: the text holds raw HTML \(a <script> element\), which the site does not publish/,
    ],
    [
      "a document's save with a javascript: link",
      "persistEntry",
      save({ collectionName: "legal" }, [
        {
          path: "src/content/legal/risk-disclosures.md",
          slug: "risk-disclosures",
          raw: "---\ntitle: Risk\n---\n[Read more](javascript:alert(1))\n",
        },
      ]),
      /^src\/content\/legal\/risk-disclosures\.md, line 4: the link "Read more" goes to "javascript:alert\(1\)"; a link may go only to/,
    ],
  ])("refuses %s", (_, action, params, message) => {
    expect(screenAction(action, params as Record<string, unknown>, editor)).toMatch(message);
  });

  it("lets compliance read everything an editor reads, and change nothing", () => {
    const compliance: Actor = { ...editor, email: "casey@example.com", role: "compliance" };
    expect(
      screenAction("entriesByFolder", { branch: "main", folder: "src/content/legal", extension: "md", depth: 1 }, compliance),
    ).toBeNull();
    expect(screenAction("unpublishedEntry", { branch: "main", collection: "landing", slug: "hero" }, compliance)).toBeNull();
    expect(screenAction("getDeployPreview", { branch: "main", collection: "landing", slug: "hero" }, compliance)).toBeNull();
    for (const [action, params] of [
      ["persistEntry", save({})],
      ["updateUnpublishedEntryStatus", { branch: "main", collection: "landing", slug: "hero", newStatus: "pending_review" }],
      ["deleteUnpublishedEntry", { branch: "main", collection: "landing", slug: "hero" }],
      ["publishUnpublishedEntry", { branch: "main", collection: "landing", slug: "hero" }],
    ] as const)
      expect(screenAction(action, params, compliance), action).toMatch(/^Compliance follows the studio's work/);
  });

  it("lets the one developer of the loopback studio set Ready, but not write to main", () => {
    const ready = { branch: "main", collection: "landing", slug: "hero", newStatus: "pending_publish" };
    expect(screenAction("updateUnpublishedEntryStatus", ready, developer)).toBeNull();
    expect(screenAction("persistEntry", save({ useWorkflow: false }), developer)).toMatch(/^Saving straight to main/);
  });
});
