import type { Locator } from "@playwright/test";
import { expect, test } from "../support/test.ts";
import { site } from "../../src/config/site.ts";
import { openPage, PAGES } from "../support/site.ts";

const NOT_AN_OFFER = "For institutional investors only; not an offer or solicitation";
/** External links carry a screen-reader hint, " (opens in a new tab)", inside their text. */
const HINT = String.raw`(?: \(opens in a new tab\))?`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function expectExternal(link: Locator, href: string) {
  await expect(link).toHaveAttribute("href", href);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /noopener/);
}

for (const { name, path } of PAGES) {
  test(`${name}: the footer carries the broker-dealer disclosures`, async ({ page }) => {
    await openPage(page, path, { banner: "hidden", skipPopup: true });
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText(`${site.brokerDealerName} (CRD #${site.brokerDealerCrd})`);
    await expect(footer).toContainText(new RegExp(`Member FINRA${HINT} / SIPC${HINT}\\.`));
    await expectExternal(footer.getByRole("link", { name: /^FINRA \(opens/ }), "https://www.finra.org");
    await expectExternal(footer.getByRole("link", { name: /^SIPC \(opens/ }), "https://www.sipc.org");
    // Which entity offers what, and that the technology company is not a member.
    await expect(footer).toContainText(new RegExp(`${escape(site.developerName)}${HINT} develops and licenses the trading`));
    await expect(footer).toContainText("It is not a broker-dealer and is not itself a member of FINRA or SIPC.");
    await expect(footer).toContainText(
      `Securities services, including the regulated alternative trading system (ATS), are offered only by ${site.brokerDealerName}`,
    );
    await expectExternal(footer.getByRole("link", { name: /BrokerCheck/ }), site.brokerCheckUrl);
    await expect(footer).toContainText(NOT_AN_OFFER);
    await expect(footer).toContainText("not protected by SIPC");
  });
}

test("landing page: the not-an-offer notice is in the first screen, above the headline", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden", skipPopup: true });
  const notice = page.locator("#introduction").getByText(NOT_AN_OFFER);
  await expect(notice).toBeInViewport();
  const [noticeBox, headingBox] = [await notice.boundingBox(), await page.getByRole("heading", { level: 1 }).boundingBox()];
  expect(noticeBox!.y).toBeLessThan(headingBox!.y);
});

test("landing page: the BrokerCheck link sits with the first mention of the regulated ATS, outside the footer", async ({ page }) => {
  await openPage(page, "/", { banner: "hidden", skipPopup: true });
  // The first paragraph of the main content that names the ATS...
  const first = page
    .locator("main p")
    .filter({ hasText: /alternative trading system|\bATS\b/ })
    .first();
  await expect(first).toContainText("regulated alternative trading system (ATS)");
  await expect(first.locator("xpath=ancestor::section[1]")).toHaveAttribute("id", "introduction");
  // ...carries the BrokerCheck link and the FINRA and SIPC links.
  await expectExternal(first.getByRole("link", { name: /BrokerCheck/ }), site.brokerCheckUrl);
  await expectExternal(first.getByRole("link", { name: /^FINRA \(opens/ }), "https://www.finra.org");
  await expectExternal(first.getByRole("link", { name: /^SIPC \(opens/ }), "https://www.sipc.org");
  await expect(first).toContainText(site.brokerDealerName);
});

test("Risk Disclosures: SIPC does not protect non-security digital assets nor losses in value", async ({ page }) => {
  await openPage(page, "/risk-disclosures", { banner: "hidden" });
  await expect(page.locator(".prose-legal")).toContainText(
    "SIPC protection does not cover digital assets that are not securities registered with the SEC, and SIPC does not protect against losses in value of any asset.",
  );
  await expect(page.locator(".prose-legal")).toContainText(
    `${site.developerName} is a technology company. It is not a broker-dealer and is not a member of FINRA or SIPC`,
  );
});
