/**
 * The visual suite's font world holds against a machine with more fonts, shown without installing any:
 * Inter (shipped in node_modules by @expo-google-fonts/inter) is made to stand for the faces a machine
 * with fonts-liberation and fonts-noto has, by a fontconfig rule that names it "Liberation Mono",
 * "Liberation Sans" and "Noto Sans", families the site's stacks name (or reach through Arial's metric
 * alias). With that machine's fontconfig, /cookie-policy renders its text and its code in Inter; with the
 * suite's (the same machine, plus the filter of tests/visual/fontconfig.ts), in DejaVu Sans and DejaVu
 * Sans Mono, as the baselines do.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "@playwright/test";
import { findTestChrome, chromeArgs } from "../../lib/chrome.ts";
import { projectRoot } from "../../lib/root.ts";
import { expect, test } from "../support/test.ts";
import { BASELINE_FACES, facesOf } from "./environment.ts";
import { BASELINE_FONT_FILES, suiteFontconfig, systemRules, writeFontconfig } from "./fontconfig.ts";

/** A folder with Inter's regular and bold faces, and a rules file that adds it under the other machines' family names. */
function moreFonts(): string {
  const folder = mkdtempSync(join(tmpdir(), "site-more-fonts-"));
  const inter = join(projectRoot, "node_modules/@expo-google-fonts/inter");
  for (const face of ["400Regular/Inter_400Regular.ttf", "700Bold/Inter_700Bold.ttf"]) {
    copyFileSync(join(inter, face), join(folder, face.split("/")[1] ?? face));
  }
  const rules = join(folder, "more-fonts.conf");
  writeFileSync(
    rules,
    [
      '<?xml version="1.0"?>',
      "<fontconfig>",
      `  <dir>${folder}</dir>`,
      `  <match target="scan"><test name="file" compare="contains"><string>${folder}/</string></test>`,
      '    <edit name="family" mode="assign" binding="same"><string>Liberation Mono</string><string>Liberation Sans</string><string>Noto Sans</string></edit>',
      "  </match>",
      "</fontconfig>",
      "",
    ].join("\n"),
  );
  return rules;
}

/** The faces of /cookie-policy's body text and of its code, in a Chromium reading the fontconfig file given. */
async function cookiePolicyFaces(fontconfig: string, baseURL: string) {
  const browser = await chromium.launch({
    executablePath: findTestChrome(),
    args: chromeArgs,
    env: { ...(process.env as Record<string, string>), FONTCONFIG_FILE: fontconfig },
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${baseURL}/cookie-policy`);
    await page.evaluate(() => document.fonts.ready);
    return { text: await facesOf(page, "main p"), code: await facesOf(page, "main code") };
  } finally {
    await browser.close();
  }
}

test("the visual project's Chromium reads the suite's fontconfig", () => {
  const env = (test.info().project.use.launchOptions?.env ?? {}) as Record<string, string>;
  expect(env.FONTCONFIG_FILE).toBe(suiteFontconfig());
});

test("with more fonts on the machine, text and code resolve to fonts-dejavu-core only under the suite's fontconfig", async ({
  baseURL,
}) => {
  test.setTimeout(60_000);
  const extra = moreFonts();
  const rules = [...systemRules(), extra];
  const configs = [writeFontconfig({ rules }), writeFontconfig({ rules, only: BASELINE_FONT_FILES })];
  try {
    const machine = await cookiePolicyFaces(configs[0]!, String(baseURL));
    // The machine's own fontconfig would render both with the other face: the shots would differ.
    expect(machine.text).toContain("Inter-Regular");
    expect(machine.code).toContain("Inter-Regular");
    expect(machine.code).not.toContain("DejaVuSansMono");

    const suite = await cookiePolicyFaces(configs[1]!, String(baseURL));
    expect(suite.text).toContain("DejaVuSans");
    expect(suite.code).toEqual(["DejaVuSansMono"]);
    expect([...suite.text, ...suite.code].filter((face) => !BASELINE_FACES.includes(face))).toEqual([]);
  } finally {
    for (const folder of [dirname(extra), ...configs.map((file) => dirname(file))]) rmSync(folder, { recursive: true, force: true });
  }
});
