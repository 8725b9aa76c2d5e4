/**
 * The Records' pages to the studio's standard (issue 36), on the records demo's store made once per run
 * (tests/records/fixtures.ts: two real captures timestamped by the demo TSA, derived March days, one
 * drifted, one altered, one unfinished):
 * axe with no violation at 1440, 375 and 320 × 256, and a keyboard walk at 1440 and 320 × 256 where
 * every stop is drawn and on screen and no frame (a PDF, a replay, a compared page) takes the keyboard:
 * each frame has a link beside it that opens it in the tab (decision 0029).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserContext, type Page } from "@playwright/test";
import { expectPage } from "../../testing/expect-page.ts";
import type { RecordsDemo } from "../../testing/demo/records.ts";
import { keyboardWalk, SIZES, studioAxe, walkProblems } from "../studio/a11y-support.ts";
import { signIn, startTeam, type Team } from "../../testing/studio/team-support.ts";
import { recordsFixture, storeCopy } from "./fixtures.ts";

let scratch: string;
let demo: RecordsDemo;
let team: Team;
let casey: { context: BrowserContext; page: Page };
let erin: { context: BrowserContext; page: Page };

beforeAll(async () => {
  const fixture = await recordsFixture();
  scratch = mkdtempSync(join(tmpdir(), "records-a11y-"));
  // A copy: the studio writes its index of a folder store into it (.index.json).
  demo = { ...fixture, store: storeCopy(fixture, scratch) };
  process.env.ARCHIVE_STORE = demo.store;
  process.env.ARCHIVE_TSA_CA = fixture.tsaCaFile;
  team = await startTeam();
  casey = await signIn(team, "casey.compliance@example.com", "/admin/records");
  erin = await signIn(team, "erin.editor@example.com");
}, 300_000);
afterAll(async () => {
  await team?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The Records' pages as compliance opens them, and the export form after a refused request. */
const pages = (): Array<[string, string]> => [
  ["the timeline", "/admin/records"],
  ["the site as of a moment", "/admin/records?at=2026-03-14T12:00"],
  ["no capture before a moment", "/admin/records?at=2026-02-01T00:00"],
  ["a capture, its PDF and its replay", `/admin/records/capture/${demo.names.deployed}`],
  ["an altered capture", `/admin/records/capture/${demo.names.tampered}`],
  ["two captures compared", `/admin/records/compare?a=${demo.names.deployed}&b=${demo.names.drifted}`],
  ["the export form", "/admin/records/export"],
];

const show = async (page: Page, path: string, size: (typeof SIZES)[number]) => {
  await page.setViewportSize(size);
  await page.goto(`${team.url}${path}`);
  await expectPage(page.getByRole("heading", { level: 1 })).toBeVisible();
  return page;
};

describe("the Records by axe", () => {
  for (const size of SIZES)
    it(`every page at ${size.name}, and the export refused, and an editor refused`, async () => {
      for (const [name, path] of pages()) expect(await studioAxe(await show(casey.page, path, size)), name).toEqual([]);
      const form = await show(casey.page, "/admin/records/export", size);
      await form.getByLabel(/^Or a list of dates/).fill("14 March");
      await form.getByRole("button", { name: "Make the export" }).click();
      await expectPage(form.getByRole("alert")).toContainText("is not a date");
      expect(await studioAxe(form), "the export refused").toEqual([]);
      expect(await studioAxe(await show(erin.page, "/admin/records", size)), "an editor refused").toEqual([]);
    }, 300_000);
});

describe("the Records by keyboard", () => {
  for (const size of [SIZES[0], SIZES[2]])
    it(`every page at ${size.name}: each stop drawn and on screen, no frame entered`, async () => {
      for (const [name, path] of pages()) {
        const stops = await keyboardWalk(await show(casey.page, path, size));
        expect(stops.length, name).toBeGreaterThan(3);
        expect(walkProblems(stops), name).toEqual([]);
      }
    }, 300_000);

  it("the export refused: the message is tied to the fields it is about, and read first", async () => {
    const form = await show(casey.page, "/admin/records/export", SIZES[0]);
    await form.getByLabel(/^Or a list of dates/).fill("14 March");
    await form.getByRole("button", { name: "Make the export" }).click();
    const dates = form.getByLabel(/^Or a list of dates/);
    await expectPage(dates).toHaveAttribute("aria-invalid", "true");
    await expectPage(dates).toHaveAccessibleDescription(/"14" is not a date/);
    await expectPage(form.getByRole("alert")).toBeFocused();
  });
});
