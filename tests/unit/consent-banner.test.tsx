// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConsentBanner } from "@/components/islands/ConsentBanner";

const ANALYTICS = "https://analytics.example.org/script.js";
const analyticsScripts = () => document.querySelectorAll(`script[data-analytics][src="${ANALYTICS}"]`);

function setGpc(value: boolean | undefined) {
  Object.defineProperty(navigator, "globalPrivacyControl", { configurable: true, get: () => value });
}

beforeEach(() => {
  localStorage.clear();
  document.head.innerHTML = "";
  document.documentElement.setAttribute("data-consent", "unset");
  setGpc(undefined);
});
afterEach(cleanup);

describe("ConsentBanner and the optional analytics script", () => {
  it("loads nothing before a choice, and the script only after Accept All", async () => {
    render(<ConsentBanner analyticsScriptUrl={ANALYTICS} />);
    expect(analyticsScripts()).toHaveLength(0);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Accept All" })));
    expect(localStorage.getItem("cookieConsent")).toBe("accepted");
    expect(analyticsScripts()).toHaveLength(1);
    expect(document.documentElement.getAttribute("data-consent")).toBe("accepted");
  });

  it("never loads it after Reject All", async () => {
    render(<ConsentBanner analyticsScriptUrl={ANALYTICS} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Reject All" })));
    expect(localStorage.getItem("cookieConsent")).toBe("rejected");
    expect(analyticsScripts()).toHaveLength(0);
  });

  it("never loads it under Global Privacy Control, even after Accept All", async () => {
    setGpc(true);
    render(<ConsentBanner analyticsScriptUrl={ANALYTICS} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Accept All" })));
    expect(analyticsScripts()).toHaveLength(0);
  });

  it("loads it for a returning visitor who accepted, once", async () => {
    localStorage.setItem("cookieConsent", "accepted");
    document.documentElement.setAttribute("data-consent", "accepted");
    render(<ConsentBanner analyticsScriptUrl={ANALYTICS} />);
    await act(async () => undefined);
    expect(analyticsScripts()).toHaveLength(1);
    expect(screen.queryByRole("region", { name: "Cookie consent" })).toBeNull();
  });

  it("loads nothing when no analytics script is configured", async () => {
    render(<ConsentBanner analyticsScriptUrl="" />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Accept All" })));
    expect(document.querySelectorAll("script")).toHaveLength(0);
  });
});
