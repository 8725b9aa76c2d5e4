/**
 * The replay's parts that need no browser (decision 0047): the pass and its session, the addresses
 * pointed into the replay, the policies that seal it, and the reading of the records' addresses
 * (issue 49: a malformed escape or an unknown name is bad input, never a fault).
 */
import { describe, expect, it } from "vitest";
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { SessionStore, type Actor } from "../../studio/auth/sessions.ts";
import { comparedPair, overlaysAsked, storedFilePath } from "../../studio/records/refusals.tsx";
import { ReplayPasses } from "../../studio/records/replay-pass.ts";
import { placeOf, pointInto, recordedPolicy, recordedUrlOf, rewriteHtml, sealPolicy } from "../../studio/records/replay-rewrite.ts";

const actor = (role: Actor["role"]): Actor => ({
  issuer: "https://idp.example",
  subject: role,
  name: role,
  email: `${role}@example.com`,
  role,
  authTime: 0,
});

describe("a replay's pass", () => {
  it("opens one capture for its session's lifetime and the pass's hour, and nothing after", () => {
    let now = 0;
    const sessions = new SessionStore({ idleMs: 30 * 60_000, maxMs: 8 * 3_600_000, now: () => now });
    const passes = new ReplayPasses({ now: () => now });
    const casey = sessions.create(actor("compliance"));
    const pass = passes.issue(casey, "20260314T061700Z", "shown");
    expect(pass).toMatch(/^[\w-]{43}$/);
    const lookup = (id: string) => sessions.peek(id);
    expect(passes.open(pass, "20260314T061700Z", lookup)?.session.id).toBe(casey.id);
    expect(passes.open(pass, "20260301T140500Z", lookup)).toBeUndefined();
    expect(passes.open("A".repeat(43), "20260314T061700Z", lookup)).toBeUndefined();
    // The same view asked again within the half-hour gets the same pass; the other view its own.
    expect(passes.issue(casey, "20260314T061700Z", "shown")).toBe(pass);
    expect(passes.issue(casey, "20260314T061700Z", "closed")).not.toBe(pass);
    // Opening a pass leaves the session's idle clock alone: a page's own scripts do not keep it alive.
    now = 29 * 60_000;
    expect(passes.open(pass, "20260314T061700Z", lookup)).toBeDefined();
    now = 31 * 60_000;
    expect(passes.open(pass, "20260314T061700Z", lookup)).toBeUndefined();
  });

  it("ends with its session, and after its hour", () => {
    let now = 0;
    const sessions = new SessionStore({ idleMs: Infinity, maxMs: Infinity, now: () => now });
    const passes = new ReplayPasses({ now: () => now });
    const lookup = (id: string) => sessions.peek(id);
    const casey = sessions.create(actor("compliance"));
    const signedOut = passes.issue(casey, "20260314T061700Z", "shown");
    sessions.delete(casey.id);
    expect(passes.open(signedOut, "20260314T061700Z", lookup)).toBeUndefined();
    const pat = sessions.create(actor("principal"));
    const hour = passes.issue(pat, "20260314T061700Z", "closed");
    expect(passes.open(hour, "20260314T061700Z", lookup)?.overlays).toBe("closed");
    now = 60 * 60_000;
    expect(passes.open(hour, "20260314T061700Z", lookup)).toBeUndefined();
    // An editor's session opens no replay, whatever pass it holds.
    const erin = sessions.create(actor("editor"));
    expect(passes.open(passes.issue(erin, "20260314T061700Z", "shown"), "20260314T061700Z", lookup)).toBeUndefined();
  });
});

describe("the replay's addresses and policies", () => {
  const place = { origin: "https://www.example.com", studio: "https://studio.example.com", root: "/admin/records/capture/X/replay/P" };

  it("points the site's and the third parties' addresses into the replay, and reads them back", () => {
    const page = "https://www.example.com/";
    expect(pointInto("/privacy-policy", page, place)).toBe("/admin/records/capture/X/replay/P/privacy-policy");
    expect(pointInto("https://www.example.com/a?b=1#c", page, place)).toBe("/admin/records/capture/X/replay/P/a?b=1#c");
    const script = pointInto("https://forms.example.net/js/form_embed.js", page, place);
    expect(script).toBe("/admin/records/capture/X/replay/P/.external/https/forms.example.net/js/form_embed.js");
    expect(recordedUrlOf(script.slice(place.root.length), place)).toBe("https://forms.example.net/js/form_embed.js");
    expect(recordedUrlOf("/privacy-policy?x=1", place)).toBe("https://www.example.com/privacy-policy?x=1");
    expect(recordedUrlOf("/.external/ftp/x", place)).toBeUndefined();
    for (const kept of ["mailto:a@example.com", "tel:+1", "#top", "data:,x", "relative/page"])
      expect(pointInto(kept, page, place)).toBe(kept);
    expect(placeOf(new URL("http://cdn.example.org:8080/x"), place)).toBe(
      "/admin/records/capture/X/replay/P/.external/http/cdn.example.org:8080/x",
    );
  });

  it("rewrites a page's links, sources and island properties, and puts the replay's own script first", () => {
    const html = `<!doctype html><html><head><script src="/a.js"></script></head><body>
      <a href="https://www.example.com/terms">t</a><img srcset="/x.png 1x, https://cdn.example.org/y.png 2x">
      <astro-island props='{"scriptUrl":[0,"https://forms.example.net/js/form_embed.js"]}'></astro-island></body></html>`;
    const first = { type: "element" as const, tagName: "script", properties: { dataReplay: "x" }, children: [] };
    const out = rewriteHtml(html, "https://www.example.com/", place, first);
    expect(out).toMatch(/<head><script data-replay="x"><\/script><script src="\/admin\/records\/capture\/X\/replay\/P\/a.js">/);
    expect(out).toContain('href="/admin/records/capture/X/replay/P/terms"');
    expect(out).toContain(
      "/admin/records/capture/X/replay/P/x.png 1x, /admin/records/capture/X/replay/P/.external/https/cdn.example.org/y.png 2x",
    );
    expect(out).toContain("/admin/records/capture/X/replay/P/.external/https/forms.example.net/js/form_embed.js");
  });

  it("keeps the recorded policy with its sources pointed into the replay, and seals it with the studio's own", () => {
    const recorded =
      "default-src 'self'; script-src 'self' 'sha256-abc' https://forms.example.net; frame-src https://*.example.net; frame-ancestors 'none'; report-uri /r";
    const kept = recordedPolicy(recorded, "https://www.example.com/", place, "'sha256-first'");
    expect(kept).toBe(
      "default-src 'self'; script-src 'self' 'sha256-abc' https://studio.example.com/admin/records/capture/X/replay/P/.external/https/forms.example.net/ 'sha256-first'; frame-src",
    );
    const seal = sealPolicy(place);
    expect(seal).toContain("script-src https://studio.example.com/admin/records/capture/X/replay/P/ 'unsafe-inline'");
    expect(seal).toContain("default-src 'none'");
    expect(seal).toContain("frame-ancestors 'self'");
    expect(seal).toMatch(/sandbox allow-scripts$/);
    expect(sealPolicy(place, true)).not.toContain("frame-ancestors");
  });
});

describe("the records' addresses read as bad input", () => {
  const entry = (name: string, complete = true) => ({ name, time: "2026-03-14T06:17:00.000Z", complete }) as CaptureEntry;
  const entries = [entry("20260301T140500Z"), entry("20260314T061700Z"), entry("20260315T061700Z", false)];

  it("reads a stored file's name, or says its escape is broken", () => {
    expect(storedFilePath("/admin/records/capture/X/files/pdf/a%20b.pdf")).toEqual({ path: "pdf/a b.pdf" });
    expect(storedFilePath("/admin/records/capture/X/files/%E0%A4%A")).toEqual({ malformed: "%E0%A4%A" });
  });

  it("names the capture of a pair the store has not, or that never finished", () => {
    expect(comparedPair(entries, undefined, undefined)).toEqual({});
    expect(comparedPair(entries, "20260301T140500Z", "20260314T061700Z")).toMatchObject({
      pair: { a: { name: "20260301T140500Z" }, b: { name: "20260314T061700Z" } },
    });
    expect(comparedPair(entries, "20990101T000000Z", "20260314T061700Z")).toMatchObject({
      status: 404,
      refused: expect.stringContaining("no capture named 20990101T000000Z"),
    });
    expect(comparedPair(entries, "nonsense", undefined)).toMatchObject({
      status: 404,
      refused: expect.stringContaining('"nonsense" is not the name of a capture'),
    });
    expect(comparedPair(entries, "20260315T061700Z", "20260314T061700Z")).toMatchObject({
      status: 404,
      refused: expect.stringContaining("never finished"),
    });
    expect(comparedPair(entries, "20260314T061700Z", undefined)).toMatchObject({ status: 400 });
  });

  it("knows the replay's two views and nothing else", () => {
    expect(overlaysAsked(undefined)).toBe("shown");
    expect(overlaysAsked("closed")).toBe("closed");
    expect(overlaysAsked("sideways")).toBeUndefined();
  });
});
