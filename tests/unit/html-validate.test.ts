import { readdirSync } from "node:fs";
import { join } from "node:path";
import { FileSystemConfigLoader, HtmlValidate, type Message } from "html-validate";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIsCurrent, projectRoot } from "../../scripts/build-inputs.ts";

const dist = join(projectRoot, "dist");
const pages = [
  "index.html",
  "terms-of-service.html",
  "privacy-policy.html",
  "risk-disclosures.html",
  "cookie-policy.html",
  "business-continuity.html",
  "disclosures.html",
  "404.html",
];
const validator = new HtmlValidate(new FileSystemConfigLoader());

const describeMessage = (m: Message) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`;

describe("html-validate over dist/ (config: .htmlvalidate.mjs)", () => {
  beforeAll(() => {
    // `npm test` builds first; run `npm run build` before `vitest run` alone.
    if (!buildIsCurrent()) throw new Error("dist/ is missing or stale: run `npm run build` first");
  });

  it("builds exactly the eight pages this test validates", () => {
    expect(
      readdirSync(dist)
        .filter((name) => name.endsWith(".html"))
        .sort(),
    ).toEqual([...pages].sort());
  });

  it.each(pages)("reports no errors or warnings in %s", async (page) => {
    const report = await validator.validateFile(join(dist, page));
    const messages = report.results.flatMap((result) => result.messages).map(describeMessage);
    expect(messages).toEqual([]);
    expect(report.valid).toBe(true);
  });
});
