import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { contentSecurityPolicy } from "@/shared/security-headers";
import { describeStatus, fetchStatus, readStatusJson, statusJsonUrl } from "@/components/islands/tooltips/status";
import { statusCopySchema } from "@/content/schemas/landing";

const copy = statusCopySchema.parse(parse(readFileSync("src/content/landing/status.yaml", "utf8")));
/** The words a page carries: without a status page, and with one. */
const noPage = { unconfigured: copy.unconfigured };
const withPage = { checking: copy.checking, reported: copy.reported, unavailable: copy.unavailable };

const answer = (indicator: unknown, description: unknown) => ({ page: { id: "x" }, status: { indicator, description } });

describe("the status page's answer", () => {
  it.each([
    // the five Statuspage indicators
    [answer("none", "All Systems Operational"), "reported"],
    [answer("minor", "Minor Service Outage"), "reported"],
    [answer("major", "Partial System Outage"), "reported"],
    [answer("critical", "Major System Outage"), "reported"],
    [answer("maintenance", "Service Under Maintenance"), "reported"],
    // anything else is no usable answer
    [answer("all-good", "Fine"), "unavailable"],
    [answer("none", ""), "unavailable"],
    [answer("none", 42), "unavailable"],
    [answer("none", "x".repeat(201)), "unavailable"],
    [{ page: {} }, "unavailable"],
    [null, "unavailable"],
    ["All Systems Operational", "unavailable"],
  ])("reads %j as %s", (body, kind) => {
    expect(readStatusJson(body).kind).toBe(kind);
  });

  it("asks <page>/api/v2/status.json, without cookies or referrer", async () => {
    const calls: Array<[string, RequestInit | undefined]> = [];
    const fake = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response(JSON.stringify(answer("minor", "Degraded")), { status: 200 });
    }) as typeof fetch;
    expect(await fetchStatus("https://status.example.org/", { fetch: fake })).toEqual({
      kind: "reported",
      indicator: "minor",
      description: "Degraded",
    });
    expect(calls[0]![0]).toBe("https://status.example.org/api/v2/status.json");
    expect(calls[0]![1]).toMatchObject({ credentials: "omit", referrerPolicy: "no-referrer" });
    expect(statusJsonUrl("https://status.example.org")).toBe("https://status.example.org/api/v2/status.json");
  });

  it.each([
    ["an HTTP error", async () => new Response("down", { status: 503 })],
    ["a body that is not JSON", async () => new Response("<html>", { status: 200 })],
    [
      "a network error",
      async () => {
        throw new TypeError("Failed to fetch");
      },
    ],
  ])("is unavailable after %s", async (_name, impl) => {
    expect(await fetchStatus("https://status.example.org", { fetch: impl as unknown as typeof fetch })).toEqual({ kind: "unavailable" });
  });

  it("is unavailable when the page does not answer in time", async () => {
    const never = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      )) as typeof fetch;
    expect(await fetchStatus("https://status.example.org", { fetch: never, timeoutMs: 20 })).toEqual({ kind: "unavailable" });
  });
});

describe("what the dot says", () => {
  it("without a status page, nothing about the platform's health", () => {
    const { text, tone } = describeStatus({ kind: "unconfigured" }, "", noPage);
    expect(tone).toBe("neutral");
    expect(text).not.toMatch(/operational|available|healthy|normal|\bup\b/i);
  });

  it("names the page an answer came from, and says so when there is none", () => {
    expect(describeStatus({ kind: "checking" }, "status.example.org", withPage).text).toBe("Platform status: see status.example.org");
    expect(
      describeStatus({ kind: "reported", indicator: "major", description: "Partial System Outage" }, "status.example.org", withPage),
    ).toEqual({
      text: "Platform status (status.example.org): Partial System Outage",
      tone: "major",
    });
    expect(describeStatus({ kind: "unavailable" }, "status.example.org", withPage).text).toBe(
      "Platform status unavailable; see status.example.org",
    );
  });
});

describe("the Content-Security-Policy follows the configuration", () => {
  const base = {
    scriptHashes: [],
    styleHashes: [],
    formEmbedScriptUrl: "https://forms.example.net/a.js",
    formFrameBaseUrl: "https://forms.example.net/f/",
    analyticsScriptUrl: "",
  };
  const connect = (csp: string) => csp.split("; ").find((d) => d.startsWith("connect-src"));
  it("lets the page read the status page only when one is configured", () => {
    expect(connect(contentSecurityPolicy({ ...base, statusUrl: "" }))).toBe("connect-src 'self' https://forms.example.net");
    expect(connect(contentSecurityPolicy({ ...base, statusUrl: "https://status.example.org" }))).toBe(
      "connect-src 'self' https://forms.example.net https://status.example.org",
    );
  });
});
