// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { COPYRIGHT_YEAR, HEADER_SCROLL_THRESHOLD_PX, LEGAL_LAST_UPDATED } from "@/lib/constants";
import { ensureEmbedScript, nextFormState, removeEmbedScript, type FormEvent, type FormState } from "@/lib/form-embed";
import { isScrolled } from "@/lib/header";
import { assertSectionsMatch, formatLastUpdated } from "@/lib/legal";
import { replaceSiteTokens } from "@/lib/remark-site-tokens";
import { siteDefaults } from "@/config/site";

describe("header", () => {
  it.each([
    [0, false],
    [HEADER_SCROLL_THRESHOLD_PX, false],
    [HEADER_SCROLL_THRESHOLD_PX + 1, true],
    [50.5, true],
    [4000, true],
  ])("at scrollY %d it is scrolled: %s", (y, expected) => {
    expect(isScrolled(y)).toBe(expected);
  });
});

describe("contact form states", () => {
  it.each([
    ["waiting", "near", "loading"],
    ["waiting", "require-click", "needs-click"],
    ["waiting", "frame-load", "waiting"],
    // Reject All / GPC: scrolling near does nothing, a click loads
    ["needs-click", "near", "needs-click"],
    ["needs-click", "click-load", "loading"],
    ["loading", "frame-load", "loaded"],
    ["loading", "script-error", "failed"],
    ["loading", "timeout", "failed"],
    // a timeout after the frame loaded changes nothing
    ["loaded", "timeout", "loaded"],
    ["loaded", "script-error", "failed"],
    ["failed", "frame-load", "failed"],
  ] as const satisfies ReadonlyArray<readonly [FormState, FormEvent, FormState]>)("%s + %s → %s", (from, event, to) => {
    expect(nextFormState(from, event)).toBe(to);
  });

  it("adds the embed script once and removes it", () => {
    const first = ensureEmbedScript(document, "https://forms.example.net/js/form_embed.js", () => undefined);
    const second = ensureEmbedScript(document, "https://forms.example.net/js/form_embed.js", () => undefined);
    expect(second).toBe(first);
    expect(document.querySelectorAll("script[data-form-embed]")).toHaveLength(1);
    removeEmbedScript(document);
    expect(document.querySelectorAll("script[data-form-embed]")).toHaveLength(0);
  });
});

describe("legal pages", () => {
  it("prints the spec's date from the front matter date, whatever the time zone", () => {
    expect(formatLastUpdated(new Date("2025-01-15"))).toBe(LEGAL_LAST_UPDATED);
    expect(formatLastUpdated(new Date("2025-01-01T00:00:00Z"))).toBe("January 2025");
    expect(COPYRIGHT_YEAR).toBe(2025);
  });

  it("accepts matching sections and names the file and field otherwise", () => {
    expect(() => assertSectionsMatch("a.md", ["1. A", "2. B"], ["1. A", "2. B"])).not.toThrow();
    expect(() => assertSectionsMatch("src/content/legal/a.md", ["1. A", "2. B"], ["1. A", "2. C"])).toThrow(
      /src\/content\/legal\/a\.md: field "sections"/,
    );
  });

  it("fills company tokens from the configuration and rejects unknown ones", () => {
    expect(replaceSiteTokens("{{brokerDealerName}} (CRD {{ brokerDealerCrd }})", "x.md", siteDefaults)).toBe(
      "Fictive Securities LLC (CRD 000000)",
    );
    expect(() => replaceSiteTokens("{{ceoName}}", "src/content/legal/x.md", siteDefaults)).toThrow(
      /src\/content\/legal\/x\.md: unknown token \{\{ceoName\}\}/,
    );
  });
});
