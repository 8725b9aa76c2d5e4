/** A publish after main moved under the entry, through the admin in Chromium: refused with a clear message, nothing lost. */
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "@playwright/test";
import { git } from "../../studio/git.ts";
import { listEntries } from "../../studio/workflow/entries.ts";
import { openAdmin, publishNow, setStatus } from "../../testing/studio/trial-admin.ts";
import { startStudioOnClone, type StudioRun } from "./support.ts";

let run: StudioRun;
let page: Page;
const POPUP = "src/content/landing/popup.yaml";

beforeAll(async () => {
  run = await startStudioOnClone();
  page = await run.browser.newPage({ viewport: { width: 1440, height: 900 } });
});
afterAll(() => run?.stop(), 60_000);

describe("a publish after main moved under the entry", () => {
  it("is refused with a message naming the file, and main, the entry and its words stay as they were", async () => {
    await openAdmin(page, run.origin, "/collections/landing/entries/popup");
    await page
      .getByLabel("Body", { exact: true })
      .fill("We are still building the platform. You are welcome to write to us in the meantime.");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Status: Draft").first().waitFor();
    await setStatus(page, "In review");
    await vi.waitUntil(() => listEntries(run.repo)[0]?.status === "pending_review", { timeout: 30_000, interval: 100 });

    // Meanwhile a developer changes the same words on main (in the studio's clone, where main is checked out between actions).
    expect(git(run.repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    const file = join(run.repo, POPUP);
    writeFileSync(file, readFileSync(file, "utf8").replace("get in touch", "contact our team"));
    git(run.repo, "commit", "--quiet", "-am", "A developer's change to the popup");
    const before = { main: git(run.repo, "rev-parse", "main"), entry: git(run.repo, "rev-parse", "cms/landing/popup") };

    await setStatus(page, "Ready");
    await publishNow(page);
    await page
      .getByText(`Not published: main has changed ${POPUP} since this entry was started, and the two changes overlap. Nothing is lost`, {
        exact: false,
      })
      // The studio's notice in the dock; Decap's toast of the same refusal is taken away (one voice, decision 0045).
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 120_000 });
    expect({ main: git(run.repo, "rev-parse", "main"), entry: git(run.repo, "rev-parse", "cms/landing/popup") }).toEqual(before);
    expect(git(run.repo, "show", `cms/landing/popup:${POPUP}`)).toContain("write to us");
    expect(git(run.repo, "show", `main:${POPUP}`)).toContain("contact our team");
    expect(git(run.repo, "status", "--porcelain")).toBe("");
  }, 300_000);
});
