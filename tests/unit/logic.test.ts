// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { COPYRIGHT_YEAR, LEGAL_LAST_UPDATED } from "@/shared/constants";
import {
  ensureEmbedScript,
  formEmbedView,
  initialFormEmbedState,
  nextFormEmbedState,
  removeEmbedScript,
  wantsEmbedScript,
  type FormEmbedEvent,
  type FormEmbedState,
} from "@/components/islands/ContactForm/state";
import { formatLastUpdated, sectionsProblem } from "@/build/legal";
import { replaceSiteTokens } from "@/build/markdown/remark-site-tokens";
import { siteDefaults } from "@/config/site";

/** Runs events from the server-rendered state. */
const run = (...events: FormEmbedEvent[]) => events.reduce(nextFormEmbedState, initialFormEmbedState);
const summary = (s: FormEmbedState) => `${formEmbedView(s)}/${s.status}${wantsEmbedScript(s) ? "+script" : ""}`;
const accepted: FormEmbedEvent = { type: "consent", auto: true };
const undecided: FormEmbedEvent = { type: "consent", auto: false };
const enter: FormEmbedEvent = { type: "view", inView: true };
const leave: FormEmbedEvent = { type: "view", inView: false };
const scriptLoad: FormEmbedEvent = { type: "script-load" };

describe("contact form states", () => {
  it.each([
    // before hydration has read consent: the server's placeholder, whatever the view
    ["nothing yet", [], "placeholder/idle"],
    ["in view before consent is read", [enter], "placeholder/idle"],
    // Accept All: entering the section loads it, leaving removes the script, returning adds it again
    ["accepted, away from the section", [accepted], "placeholder/idle"],
    ["accepted, entering", [accepted, enter], "frame/loading+script"],
    ["accepted, already in view when consent is read (restored scroll, tall window)", [enter, accepted], "frame/loading+script"],
    ["accepted, leaving", [accepted, enter, leave], "frame/loading"],
    ["accepted, coming back", [accepted, enter, leave, enter], "frame/loading+script"],
    ["the frame loaded, the script not yet", [accepted, enter, { type: "frame-load" }], "frame/loading+script"],
    ["loaded: frame, then script", [accepted, enter, { type: "frame-load" }, scriptLoad], "frame/loaded+script"],
    ["loaded: script, then frame", [accepted, enter, scriptLoad, { type: "frame-load" }], "frame/loaded+script"],
    // undecided, rejected or GPC: only a click loads it, and being at the section loads nothing
    ["undecided at the section", [undecided, enter], "click/idle"],
    ["undecided, click", [undecided, enter, { type: "click-load" }], "frame/loading+script"],
    ["Accept All given at the section", [undecided, enter, accepted], "frame/loading+script"],
    ["consent withdrawn after an automatic load", [accepted, enter, undecided], "click/idle"],
    ["consent withdrawn after the visitor's own click", [undecided, enter, { type: "click-load" }, undecided], "frame/loading+script"],
    // failures: only while loading
    ["script error while loading", [accepted, enter, { type: "script-error" }], "failed/failed"],
    // a blocked provider: the browser fires the frame's load (its error page) before or after the script's error
    ["blocked provider, frame load first", [accepted, enter, { type: "frame-load" }, { type: "script-error" }], "failed/failed"],
    ["10 s without the form", [accepted, enter, { type: "timeout" }], "failed/failed"],
    ["10 s with the frame but no script", [accepted, enter, { type: "frame-load" }, { type: "timeout" }], "failed/failed"],
    ["a timeout after the form loaded", [accepted, enter, { type: "frame-load" }, scriptLoad, { type: "timeout" }], "frame/loaded+script"],
    [
      "a re-added script failing after the form loaded",
      [accepted, enter, { type: "frame-load" }, scriptLoad, leave, enter, { type: "script-error" }],
      "frame/loaded+script",
    ],
    [
      "Accept All again after a withdrawal waits for the new frame",
      [accepted, enter, { type: "frame-load" }, scriptLoad, undecided, accepted],
      "frame/loading+script",
    ],
    ["failed stays failed", [accepted, enter, { type: "timeout" }, { type: "frame-load" }, enter], "failed/failed"],
  ] as const satisfies ReadonlyArray<readonly [string, readonly FormEmbedEvent[], string]>)("%s: %s", (_name, events, expected) => {
    expect(summary(run(...events))).toBe(expected);
  });

  it("adds the embed script once and removes it", () => {
    const first = ensureEmbedScript(document, "https://forms.example.net/js/form_embed.js", {
      load: () => undefined,
      error: () => undefined,
    });
    const second = ensureEmbedScript(document, "https://forms.example.net/js/form_embed.js", {
      load: () => undefined,
      error: () => undefined,
    });
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

  it.each([
    // the legal pages' six sections
    [["A", "B", "C", "D", "E", "F"], { min: 6, max: 6 }, null],
    // five where six are needed: the file, the count and each heading named
    [
      ["A", "B", "C", "D", "E"],
      { min: 6, max: 6 },
      'src/content/legal/a.md: the body has 5 "## " headings: "A", "B", "C", "D", "E"; this page needs exactly 6',
    ],
    // a disclosure with none
    [[], { min: 1, max: 12 }, 'src/content/legal/a.md: the body has 0 "## " headings; this page needs 1 to 12'],
    // a heading with no words
    [["A", " "], { min: 1, max: 12 }, 'src/content/legal/a.md: "## " heading 2 of the body has no words; give it a title or remove it'],
  ])("counts the body's sections %j against %j", (headings, allowed, problem) => {
    expect(sectionsProblem("src/content/legal/a.md", headings, allowed)).toBe(problem);
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
