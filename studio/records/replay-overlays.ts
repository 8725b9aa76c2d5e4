/**
 * The replay's first script (studio/admin/replay-overlays.ts: no focus taken from the studio's page,
 * and the overlays closed in that view), bundled for the browser once per studio, as a <head> element
 * for one view and the hash the recorded policy is given for it (decision 0047).
 */
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Element } from "hast";

/** How a replayed page is shown: as a first visit saw it, or with its overlays closed as its visitor closed them. */
export type Overlays = "shown" | "closed";

export interface FirstScript {
  element: Element;
  /** Its CSP hash source ('sha256-…'). */
  hash: string;
}

let made: Promise<{ code: string; hash: string }> | undefined;

async function bundle() {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../admin/replay-overlays.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  return { code, hash: `'sha256-${createHash("sha256").update(code).digest("base64")}'` };
}

/** The script for one view: the same code (one hash), the view named on the element. */
export async function overlaysScript(overlays: Overlays): Promise<FirstScript> {
  // A failed bundle is tried again at the next request, not remembered.
  made ??= bundle().catch((error: unknown) => {
    made = undefined;
    throw error;
  });
  const { code, hash } = await made;
  return {
    element: {
      type: "element",
      tagName: "script",
      properties: { dataReplay: overlays === "closed" ? "overlays-closed" : "overlays-shown" },
      children: [{ type: "text", value: code }],
    },
    hash,
  };
}
