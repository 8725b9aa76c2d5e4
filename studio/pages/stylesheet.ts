/** The stylesheet of the studio's own pages, a file of its own, served under a name made from its hash so a browser keeps it until it changes. */
import { readFileSync } from "node:fs";
import { sha256Hex } from "../../lib/hash.ts";

export const STUDIO_CSS = readFileSync(new URL("./studio.css", import.meta.url), "utf8");
export const STUDIO_CSS_PATH = `/admin/studio.${sha256Hex(STUDIO_CSS).slice(0, 12)}.css`;
