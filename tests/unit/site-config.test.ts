import { describe, expect, it } from "vitest";
import { formFrameUrl, loadSiteConfig, siteDefaults, siteEnvNames } from "@/config/site";

describe("site configuration", () => {
  it("accepts the fictional defaults", () => {
    expect(loadSiteConfig({})).toEqual(siteDefaults);
    expect(siteDefaults.businessEmail).toMatch(/@example\.com$/);
  });

  it("takes every field from its PUBLIC_* variable", () => {
    const config = loadSiteConfig({
      PUBLIC_BRAND_NAME: "Acme Markets",
      PUBLIC_BROKER_DEALER_CRD: "123456",
      PUBLIC_SITE_URL: "https://acme.example.org/",
    });
    expect(config.brandName).toBe("Acme Markets");
    expect(config.brokerDealerCrd).toBe("123456");
    expect(config.siteUrl).toBe("https://acme.example.org");
  });

  it("names every field with an environment variable", () => {
    expect(Object.keys(siteEnvNames).sort()).toEqual(Object.keys(siteDefaults).sort());
    for (const name of Object.values(siteEnvNames)) expect(name).toMatch(/^PUBLIC_[A-Z_]+$/);
  });

  it.each([
    // a mistyped e-mail
    ["PUBLIC_BUSINESS_EMAIL", "not-an-email", "businessEmail"],
    // a CRD number with letters
    ["PUBLIC_BROKER_DEALER_CRD", "12AB", "brokerDealerCrd"],
    // a script URL that is not http(s)
    ["PUBLIC_FORM_EMBED_SCRIPT_URL", "javascript:alert(1)", "formEmbedScriptUrl"],
    // a form id that would break out of the URL path
    ["PUBLIC_FORM_ID", "../../x", "formId"],
    // an analytics URL that is not a URL
    ["PUBLIC_ANALYTICS_SCRIPT_URL", "tracker", "analyticsScriptUrl"],
    // a status page that is not a web address
    ["PUBLIC_STATUS_URL", "file:///etc/status.json", "statusUrl"],
  ])("rejects %s=%s, naming the field and the variable", (name, value, field) => {
    expect(() => loadSiteConfig({ [name]: value })).toThrow(new RegExp(`${field} \\(${name}\\)`));
  });

  it("builds the form frame URL from the base and the id", () => {
    expect(formFrameUrl(siteDefaults)).toBe("https://forms.example.net/widget/form/contact-us-demo");
  });
});
