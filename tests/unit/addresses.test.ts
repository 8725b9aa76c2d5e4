import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addressOf, addressRefusal, RESERVED_ADDRESSES } from "../../src/shared/addresses.ts";
import { ICONS } from "../../src/build/seo.ts";
import { projectRoot } from "../../lib/root.ts";

const taken = new Map([
  ["terms-of-service", "Terms of Service"],
  ["fee-schedule", "Fee Schedule"],
]);

describe("the address of a new page", () => {
  it.each([
    // a title becomes lower-case words joined by hyphens
    ["Fee Schedule", "fee-schedule"],
    // accents are dropped, punctuation and spaces become one hyphen, none at the ends
    ["Conflicts of Interest — Résumé (2026)", "conflicts-of-interest-resume-2026"],
    ["  Form CRS: Client Relationship Summary. ", "form-crs-client-relationship-summary"],
    // an apostrophe goes, as Decap drops it
    ["Members' Notice", "members-notice"],
    // what Decap keeps and the rule then refuses
    ["Fee_Schedule", "fee_schedule"],
    // nothing to make an address of
    ["日本", ""],
  ])("%j gives /%s", (title, address) => {
    expect(addressOf(title)).toBe(address);
  });

  it.each([
    ["order-routing", null],
    ["form-crs-2026", null],
    ["fee-schedule", "The address /fee-schedule, made from the title, is taken by Fee Schedule: give the page a title of its own."],
    [
      "terms-of-service",
      "The address /terms-of-service, made from the title, is taken by Terms of Service: give the page a title of its own.",
    ],
    ["sitemap", "The address /sitemap, made from the title, is taken by the sitemap: give the page a title of its own."],
    ["admin", "The address /admin, made from the title, is taken by the content studio: give the page a title of its own."],
    ["og", "The address /og, made from the title, is taken by the pages' Open Graph images: give the page a title of its own."],
    ["404", "The address /404, made from the title, is taken by the not-found page: give the page a title of its own."],
    [
      "fee_schedule",
      "The address /fee_schedule, made from the title, may have only lower-case letters, digits and single hyphens: change the title.",
    ],
    ["", "The title gives no address (it needs letters or digits): change the title."],
  ])("/%s: %s", (address, refusal) => {
    expect(addressRefusal(address, taken)).toBe(refusal);
  });

  it("keeps every route of the site and every icon", () => {
    const routes = readdirSync(join(projectRoot, "src/pages"))
      .filter((name) => !name.startsWith("["))
      .map((name) => name.replace(/\..*$/, ""));
    const icons = Object.values(ICONS).map((icon) => icon.name.replace(/\.png$/, ""));
    for (const address of [...routes, ...icons, "not-found", "admin", "api"]) expect(RESERVED_ADDRESSES, address).toHaveProperty(address);
  });
});
