// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ConsentBanner } from "@/components/sections/ConsentBanner";
import { Footer } from "@/components/sections/Footer";
import { siteDefaults } from "@/config/site";

afterEach(cleanup);

/** The banner's markup carries the actions the head script answers; nothing in it needs React in the browser. */
describe("ConsentBanner (rendered at build time)", () => {
  it("names its region and its three controls as the spec and tests expect, each with its action", () => {
    render(<ConsentBanner />);
    const region = screen.getByRole("region", { name: "Cookie consent" });
    expect(region.hasAttribute("data-consent-banner")).toBe(true);
    expect(screen.getByRole("button", { name: "Accept All" }).dataset.consentAction).toBe("accept");
    expect(screen.getByRole("button", { name: "Reject All" }).dataset.consentAction).toBe("reject");
    expect(screen.getByRole("button", { name: "Close" }).dataset.consentAction).toBe("close");
    expect(screen.getByRole("link", { name: "Cookie Policy" }).getAttribute("href")).toBe("/cookie-policy");
  });

  it("the footer's Cookie settings reopens it", () => {
    render(<Footer site={siteDefaults} legalLinks={[]} />);
    expect(screen.getByRole("button", { name: "Cookie settings" }).dataset.consentAction).toBe("reopen");
  });
});
