import { describe, expect, it } from "vitest";
import { CONSENT_STORAGE_KEY } from "@/lib/constants";
import {
  consentBootScript,
  mayAutoLoadEmbeds,
  mayLoadAnalytics,
  parseConsent,
  readConsent,
  sendsGlobalPrivacyControl,
  writeConsent,
  type StorageLike,
} from "@/lib/consent";

const memory = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  } satisfies StorageLike & { data: Map<string, string> };
};
const throwing: StorageLike = {
  getItem() {
    throw new DOMException("denied", "SecurityError");
  },
  setItem() {
    throw new DOMException("quota", "QuotaExceededError");
  },
};

describe("consent", () => {
  it.each([
    ["accepted", "accepted"],
    ["rejected", "rejected"],
    // anything else is no choice
    ["Accepted", null],
    ["true", null],
    ["", null],
    [null, null],
    [undefined, null],
    ['{"accepted":true}', null],
  ])("parses %j as %j", (raw, expected) => {
    expect(parseConsent(raw)).toBe(expected);
  });

  it("reads and writes the cookieConsent key", () => {
    const storage = memory();
    expect(readConsent(() => storage)).toBeNull();
    expect(writeConsent(() => storage, "rejected")).toBe(true);
    expect(storage.data.get(CONSENT_STORAGE_KEY)).toBe("rejected");
    expect(readConsent(() => storage)).toBe("rejected");
  });

  it("treats a corrupted stored value as no choice", () => {
    expect(readConsent(() => memory({ [CONSENT_STORAGE_KEY]: "maybe" }))).toBeNull();
  });

  it("survives storage that throws or is missing", () => {
    expect(readConsent(() => throwing)).toBeNull();
    expect(writeConsent(() => throwing, "accepted")).toBe(false);
    expect(
      readConsent(() => {
        throw new Error("no window");
      }),
    ).toBeNull();
    expect(writeConsent(() => null, "accepted")).toBe(false);
  });

  it.each([
    // [consent, gpc, analytics, embeds]
    ["accepted", false, true, true],
    ["accepted", true, false, false],
    ["rejected", false, false, false],
    [null, false, false, true],
    [null, true, false, false],
  ] as const)("consent %s with GPC %s: analytics %s, embeds without a click %s", (consent, gpc, analytics, embeds) => {
    expect(mayLoadAnalytics(consent, gpc)).toBe(analytics);
    expect(mayAutoLoadEmbeds(consent, gpc)).toBe(embeds);
  });

  it("reads Global Privacy Control only when it is exactly true", () => {
    expect(sendsGlobalPrivacyControl({ globalPrivacyControl: true })).toBe(true);
    expect(sendsGlobalPrivacyControl({ globalPrivacyControl: "1" })).toBe(false);
    expect(sendsGlobalPrivacyControl({})).toBe(false);
    expect(sendsGlobalPrivacyControl(undefined)).toBe(false);
  });

  describe("the pre-paint head script", () => {
    const runBoot = (localStorage: unknown) => {
      const attributes: Record<string, string> = {};
      const document = { documentElement: { setAttribute: (k: string, v: string) => (attributes[k] = v) } };
      new Function("document", "localStorage", consentBootScript)(document, localStorage);
      return attributes["data-consent"];
    };
    it.each([
      ["accepted", "accepted"],
      ["rejected", "rejected"],
      ["garbage", "unset"],
      [null, "unset"],
    ])("marks <html> for a stored %j as %j", (stored, expected) => {
      expect(runBoot({ getItem: () => stored })).toBe(expected);
    });
    it("marks <html> unset when storage throws", () => {
      expect(runBoot(throwing)).toBe("unset");
    });
  });
});
