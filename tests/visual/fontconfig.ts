/**
 * The visual suite's own font world. Chromium on Linux finds fonts through fontconfig, which reads the
 * file FONTCONFIG_FILE names. The suite's file keeps the machine's rendering rules (hinting,
 * antialiasing, the generic families: Debian's /etc/fonts/conf.d, where the baselines were taken) but
 * lets fontconfig use no font except the files of `fonts-dejavu-core`: a machine with Liberation, Noto
 * or a desktop's fonts (or ubuntu-latest's) renders the shots with the same faces as the baselines.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The font files of Debian's (and Ubuntu's) `fonts-dejavu-core`: the only ones the suite's Chromium may use. */
export const BASELINE_FONT_FILES = [
  "DejaVuSans",
  "DejaVuSans-Bold",
  "DejaVuSansMono",
  "DejaVuSansMono-Bold",
  "DejaVuSerif",
  "DejaVuSerif-Bold",
].map((name) => `/usr/share/fonts/truetype/dejavu/${name}.ttf`);

const SYSTEM_RULES = "/etc/fonts/conf.d";
/** A user's own fontconfig (~/.config/fontconfig): left out, so that no personal rule reaches the shots. */
const USER_RULES = ["50-user.conf", "51-local.conf"];

/** The machine's rendering rules: every file of /etc/fonts/conf.d but the user's. */
export function systemRules(): string[] {
  if (!existsSync(SYSTEM_RULES)) return [];
  return readdirSync(SYSTEM_RULES)
    .filter((name) => name.endsWith(".conf") && !USER_RULES.includes(name))
    .sort()
    .map((name) => join(SYSTEM_RULES, name));
}

const xml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * A fontconfig file: the rules files given (the machine's unless told), the folders given, and, with
 * `only`, a filter that rejects every font file but those listed. Written once per content, into a
 * folder of its own under the system's temporary folder (with its cache), and its path returned.
 */
export function writeFontconfig(options: { rules?: string[]; dirs?: string[]; only?: string[] } = {}): string {
  const rules = options.rules ?? systemRules();
  const dirs = options.dirs ?? [...new Set(BASELINE_FONT_FILES.map((file) => file.slice(0, file.lastIndexOf("/"))))];
  const body = [
    ...rules.map((file) => `  <include ignore_missing="yes">${xml(file)}</include>`),
    ...dirs.map((dir) => `  <dir>${xml(dir)}</dir>`),
    ...(options.only
      ? [
          "  <selectfont>",
          "    <rejectfont><glob>*</glob></rejectfont>",
          `    <acceptfont>${options.only.map((file) => `<glob>${xml(file)}</glob>`).join("")}</acceptfont>`,
          "  </selectfont>",
        ]
      : []),
  ].join("\n");
  const folder = join(tmpdir(), `site-fontconfig-${createHash("sha256").update(body).digest("hex").slice(0, 16)}`);
  const file = join(folder, "fonts.conf");
  if (existsSync(file)) return file;
  mkdirSync(join(folder, "cache"), { recursive: true });
  const text = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    "<fontconfig>",
    body,
    `  <cachedir>${xml(join(folder, "cache"))}</cachedir>`,
    "</fontconfig>",
    "",
  ].join("\n");
  // Playwright loads its config in every worker: write aside, then rename, so no reader sees half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, text);
  renameSync(partial, file);
  return file;
}

/** The suite's font world: the machine's rules, the baseline's folder, only the baseline's files. */
export const suiteFontconfig = () => writeFontconfig({ only: BASELINE_FONT_FILES });
