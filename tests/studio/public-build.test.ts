import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIsCurrent, outDir } from "../../scripts/build-inputs.ts";
import { projectRoot } from "../../lib/root.ts";

const TEXT = /\.(?:html|js|mjs|css|txt|xml|json|webmanifest|svg)$|(?:^|\/)_(?:headers|redirects)$/;
const files = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

describe("nothing of the studio reaches the public build", () => {
  beforeAll(() => {
    // `npm test` builds first; run `npm run build` before `vitest run` on its own.
    if (!buildIsCurrent()) throw new Error("dist/ is missing or stale: run `npm run build` first");
  });

  it.each([
    ["dist", outDir],
    ["dist-static", join(projectRoot, "dist-static")],
  ])("%s has no admin page, no CMS code and no studio configuration", (_, dir) => {
    const all = files(dir).map((file) => relative(dir, file).replaceAll("\\", "/"));
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((name) => /admin|decap|netlify-cms|config\.ya?ml|studio/i.test(name))).toEqual([]);
    const mentions = all
      .filter((name) => TEXT.test(name))
      .filter((name) =>
        /decap|netlify-cms|\/api\/v1|local_backend|editorial_workflow|\/admin\b/i.test(readFileSync(join(dir, name), "utf8")),
      );
    expect(mentions).toEqual([]);
  });
});
